/**
 * The layering the product's shape depends on: `shared/` is the ground floor
 * and imports nothing from `functions/`; no function imports another
 * function's files (what several share lives in `shared/`), so each can be
 * bundled and deployed alone. Reads every import, static or dynamic.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

async function* sourceFiles(directory: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, directory))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory && entry.name !== ".wrangler") yield* sourceFiles(path);
    else if (entry.isFile && /\.(ts|js|mjs)$/.test(entry.name)) yield path;
  }
}

/** Each relative import of a file, as a path from the repository's root. */
export async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, file));
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => normalize(join(dirname(file), specifier)));
}

/** The layering rules one import breaks, if any. */
export function layeringViolation(file: string, target: string): string | undefined {
  const fileFunction = /^functions\/([^/]+)\//.exec(file)?.[1];
  const targetFunction = /^functions\/([^/]+)\//.exec(target)?.[1];
  if (file.startsWith("shared/") && target.startsWith("functions/")) {
    return `${file} imports ${target}: shared/ imports nothing from functions/`;
  }
  if (fileFunction && targetFunction && fileFunction !== targetFunction) {
    return `${file} imports ${target}: a function imports no other function's files`;
  }
  if (file.startsWith("shared/") || file.startsWith("functions/")) {
    if (relative(ROOT, join(ROOT, target)).startsWith("..")) return `${file} imports ${target}`;
    if (/^(tests|scripts)\//.test(target) || !target.includes("/")) {
      return `${file} imports ${target}: the product does not import tests, scripts or entries`;
    }
  }
  return undefined;
}

Deno.test("layering: shared/ imports no function and no function imports another", async () => {
  const violations: string[] = [];
  let checked = 0;
  for (const directory of ["shared", "functions"]) {
    for await (const file of sourceFiles(directory)) {
      for (const target of await importsOf(file)) {
        checked++;
        const violation = layeringViolation(file, target);
        if (violation) violations.push(violation);
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} imports read: the scan is broken`);
  assert.deepEqual(violations, []);
});

Deno.test("layering: the rule catches a function importing another, and shared/ importing one", () => {
  assert.match(
    layeringViolation("functions/orchestrator/query.ts", "functions/rerank/rerank.ts") ?? "",
    /no other function/,
  );
  assert.match(
    layeringViolation("shared/metrics/stats.ts", "functions/evaluate/types.ts") ?? "",
    /shared\/ imports nothing/,
  );
  assert.equal(
    layeringViolation("functions/rerank/app.ts", "functions/rerank/rerank.ts"),
    undefined,
  );
  assert.equal(layeringViolation("functions/rerank/app.ts", "shared/rerank/score.ts"), undefined);
  assert.match(layeringViolation("functions/fuse/app.ts", "app.ts") ?? "", /entries/);
});
