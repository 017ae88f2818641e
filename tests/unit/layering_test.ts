/**
 * The layering the product's shape depends on, floor by floor:
 * - `shared/` is the ground floor: ports, domain types and small utilities
 *   the functions share. It imports nothing above it: no function, no
 *   `core/`, `prompts/`, `adapters/`, `providers/` or `compose/`.
 * - `adapters/` implement shared/'s ports (Postgres, Upstash, the Workers
 *   bindings, the OpenAI-compatible embeddings client, Deno's process
 *   helpers); `providers/` (the offline model, Workers AI) sit beside them.
 * - `core/` holds the logic several functions share that sends a prompt.
 * - No function imports another function's files, so each can be bundled and
 *   deployed alone; a function's logic takes its deps, and only its entries
 *   (server.ts, worker.ts, *-entry.ts) import `compose/`, which reads config
 *   and picks the providers and adapters, as main.ts and worker.ts do.
 * - `cli/` is the command line's grammar (flags, usage, `--help`): it imports
 *   only shared/, so entries (main.ts) and scripts/ can both use it. Entries
 *   import no script: scripts sit on top and may import anything.
 * - The embedded index (`lib/vector-index/`) is a library of its own: it
 *   imports nothing outside its folder but npm packages (its tests, fixtures
 *   and benches included), and nothing outside it reaches past its doors,
 *   the exports map of `lib/vector-index/deno.json` (`mod.ts`, `deno/mod.ts`,
 *   and `testing.ts`, whose test doubles only tests and scripts import): not
 *   the product, not tests, not scripts. Scripts may run its benches
 *   (`lib/vector-index/bench/`), as `scripts/bench.ts` records them.
 * And no file imports itself through others: there is no import cycle
 * anywhere. Reads every import, static, dynamic or type-only.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import {
  importCycles,
  importGraph,
  importsOf,
  ROOT,
  sourceFiles,
} from "../helpers/import_graph.ts";

/**
 * A function's deploy entries (its own server, its Worker, a queue or cron
 * entry): each composes its function with the providers and adapters
 * compose/ picks, as main.ts and worker.ts do for the whole app.
 */
export function isFunctionEntry(file: string): boolean {
  return /^functions\/.*\/(server|worker|[a-z-]+-entry)\.ts$/.test(file);
}

/** The embedded index library: usable without the rest of sift. */
export const INDEX_LIBRARY = "lib/vector-index/";
/**
 * Its public entries: runtime-neutral, Deno's (the file log, `openIndex`), and
 * the test doubles (for tests and scripts only, never the product).
 */
export const INDEX_LIBRARY_DOORS = [
  "lib/vector-index/mod.ts",
  "lib/vector-index/deno/mod.ts",
  "lib/vector-index/testing.ts",
];
const INDEX_LIBRARY_TESTING = "lib/vector-index/testing.ts";
/** Its benches: entry points of their own, which sift's scripts may run and record. */
export const INDEX_LIBRARY_BENCHES = "lib/vector-index/bench/";

/** The layering rules one import breaks, if any. */
export function layeringViolation(file: string, target: string): string | undefined {
  if (file.startsWith(INDEX_LIBRARY) && !target.startsWith(INDEX_LIBRARY)) {
    return `${file} imports ${target}: ${INDEX_LIBRARY} imports nothing outside itself but npm packages`;
  }
  if (
    !file.startsWith(INDEX_LIBRARY) && target.startsWith(INDEX_LIBRARY) &&
    !INDEX_LIBRARY_DOORS.includes(target) &&
    !(file.startsWith("scripts/") && target.startsWith(INDEX_LIBRARY_BENCHES))
  ) {
    return `${file} imports ${target}: sift (its tests and scripts too) uses ${INDEX_LIBRARY} ` +
      `through ${INDEX_LIBRARY_DOORS.join(" or ")} only (scripts may run ${INDEX_LIBRARY_BENCHES})`;
  }
  if (target === INDEX_LIBRARY_TESTING && !/^(tests|scripts|lib)\//.test(file)) {
    return `${file} imports ${target}: the library's test doubles are for tests and scripts`;
  }
  const fileFunction = /^functions\/([^/]+)\//.exec(file)?.[1];
  const targetFunction = /^functions\/([^/]+)\//.exec(target)?.[1];
  if (file.startsWith("shared/") && target.startsWith("functions/")) {
    return `${file} imports ${target}: shared/ imports nothing from functions/`;
  }
  if (fileFunction && targetFunction && fileFunction !== targetFunction) {
    return `${file} imports ${target}: a function imports no other function's files`;
  }
  if (file.startsWith("shared/") && /^(adapters|providers|compose)\//.test(target)) {
    return `${file} imports ${target}: shared/ holds ports, adapters/ and providers/ what ` +
      "implements them, and only compose/ picks one";
  }
  if (file.startsWith("adapters/") && /^(functions|core|providers|compose)\//.test(target)) {
    return `${file} imports ${target}: an adapter implements a port of shared/ and imports ` +
      "no function, core/, provider or composition";
  }
  if (/^(core|providers)\//.test(file) && target.startsWith("compose/")) {
    return `${file} imports ${target}: only entries import the composition`;
  }
  if (file.startsWith("functions/") && target.startsWith("compose/") && !isFunctionEntry(file)) {
    return `${file} imports ${target}: a function's logic takes its deps; only its entries ` +
      "(server.ts, worker.ts, *-entry.ts) import the composition";
  }
  if (file.startsWith("shared/") && /^(core|prompts)\//.test(target)) {
    return `${file} imports ${target}: shared/ imports nothing from core/ or prompts/ ` +
      "(logic that sends a prompt lives in core/)";
  }
  if (file.startsWith("core/") && /^(functions|providers)\//.test(target)) {
    return `${file} imports ${target}: core/ serves the functions and imports none, nor a provider`;
  }
  if (file.startsWith("providers/") && target.startsWith("functions/")) {
    return `${file} imports ${target}: a provider imports no function`;
  }
  if (file.startsWith("cli/") && !/^(cli|shared)\//.test(target)) {
    return `${file} imports ${target}: cli/ is the command line's grammar and imports only shared/`;
  }
  if (!file.includes("/") && /^(tests|scripts)\//.test(target)) {
    return `${file} imports ${target}: an entry imports no script or test (cli/ has what both use)`;
  }
  if (/^(shared|core|adapters|compose|functions|providers)\//.test(file) && /^cli\//.test(target)) {
    return `${file} imports ${target}: the product does not import the command line's grammar`;
  }
  if (/^(shared|core|adapters|compose|functions|providers|cli)\//.test(file)) {
    if (relative(ROOT, join(ROOT, target)).startsWith("..")) return `${file} imports ${target}`;
    if (/^(tests|scripts)\//.test(target) || !target.includes("/")) {
      return `${file} imports ${target}: the product does not import tests, scripts or entries`;
    }
  }
  return undefined;
}

Deno.test("layering: shared/ imports no function, no function imports another, providers sit beside", async () => {
  const violations: string[] = [];
  let checked = 0;
  const folders = ["shared", "core", "adapters", "compose", "functions", "providers", "cli"];
  const entries: string[] = [];
  for await (const entry of Deno.readDir(ROOT)) {
    if (entry.isFile && entry.name.endsWith(".ts")) entries.push(entry.name);
  }
  assert.ok(entries.includes("main.ts") && entries.includes("app.ts"), "the entries are missing");
  for (const source of [...folders, ...entries]) {
    const files = source.endsWith(".ts") ? [source] : await Array.fromAsync(sourceFiles(source));
    for (const file of files) {
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

Deno.test("layering: lib/vector-index/ imports nothing outside itself but npm packages", async () => {
  const violations: string[] = [];
  let checked = 0;
  const files: string[] = [];
  for await (const file of sourceFiles(INDEX_LIBRARY)) {
    files.push(file);
    for (const target of await importsOf(file)) {
      checked++;
      const violation = layeringViolation(file, target);
      if (violation) violations.push(violation);
    }
  }
  assert.ok(checked > 50, `only ${checked} imports read: the scan is broken`);
  assert.ok(files.includes("lib/vector-index/checkpoint-v3_test.ts"), "its tests are scanned");
  assert.ok(files.includes(`${INDEX_LIBRARY_BENCHES}sparse.ts`), "its benches are scanned");
  assert.deepEqual(violations, []);
  assert.match(
    layeringViolation("lib/vector-index/namespace.ts", "shared/errors.ts") ?? "",
    /imports nothing outside itself/,
  );
  assert.equal(
    layeringViolation("adapters/vector-index/local.ts", "lib/vector-index/mod.ts"),
    undefined,
  );
  assert.match(
    layeringViolation("adapters/vector-index/local.ts", "lib/vector-index/index.ts") ?? "",
    /through lib\/vector-index\/mod\.ts/,
  );
});

Deno.test("layering: nothing outside lib/vector-index/ reaches past its doors, tests and scripts included", async () => {
  const graph = await importGraph([""]);
  const violations: string[] = [];
  let checked = 0;
  for (const [file, targets] of graph) {
    if (file.startsWith(INDEX_LIBRARY)) continue;
    for (const target of targets) {
      if (!target.startsWith(INDEX_LIBRARY)) continue;
      checked++;
      const violation = layeringViolation(file, target);
      if (violation) violations.push(violation);
    }
  }
  assert.ok(checked > 20, `only ${checked} imports of the library read: the scan is broken`);
  assert.deepEqual(violations, []);
  for (const file of ["tests/unit/local_index_test.ts", "scripts/bench-restart.ts"]) {
    assert.match(
      layeringViolation(file, "lib/vector-index/record.ts") ?? "",
      /through lib\/vector-index\/mod\.ts or lib\/vector-index\/deno\/mod\.ts or .* only/,
    );
  }
  assert.equal(layeringViolation("tests/helpers/x.ts", "lib/vector-index/deno/mod.ts"), undefined);
  assert.equal(layeringViolation("tests/unit/x_test.ts", "lib/vector-index/testing.ts"), undefined);
  assert.match(
    layeringViolation("adapters/vector-index/local.ts", "lib/vector-index/testing.ts") ?? "",
    /test doubles are for tests and scripts/,
  );
  assert.equal(
    layeringViolation("scripts/bench.ts", "lib/vector-index/bench/kernel.ts"),
    undefined,
  );
  assert.match(
    layeringViolation("tests/unit/x_test.ts", "lib/vector-index/bench/kernel.ts") ?? "",
    /only/,
  );
});

Deno.test("layering: the library's doors are its package's exports map", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, INDEX_LIBRARY, "deno.json"))) as {
    name: string;
    exports: Record<string, string>;
  };
  assert.equal(config.name, "@sift/vector-index");
  assert.deepEqual(
    Object.values(config.exports).map((path) => join(INDEX_LIBRARY, path)).sort(),
    [...INDEX_LIBRARY_DOORS].sort(),
  );
  const root = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as {
    workspace?: string[];
  };
  assert.ok(root.workspace?.includes("./lib/vector-index"), "a member of the root's workspace");
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

Deno.test("layering: cli/ imports only shared/; an entry imports no script", () => {
  assert.equal(layeringViolation("main.ts", "cli/serve-usage.ts"), undefined);
  assert.equal(layeringViolation("cli/serve-usage.ts", "shared/config.ts"), undefined);
  assert.match(layeringViolation("main.ts", "scripts/serve-usage.ts") ?? "", /imports no script/);
  assert.match(layeringViolation("cli/cli.ts", "compose/runtime.ts") ?? "", /imports only shared/);
  assert.match(layeringViolation("compose/runtime.ts", "cli/cli.ts") ?? "", /does not import the/);
  assert.equal(layeringViolation("scripts/ask.ts", "cli/cli.ts"), undefined);
});

Deno.test("layering: adapters/ implement shared/'s ports; only compose/ and entries pick one", () => {
  assert.match(
    layeringViolation("shared/metrics/stats.ts", "adapters/postgres/index.ts") ?? "",
    /only compose\/ picks one/,
  );
  assert.equal(layeringViolation("compose/runtime.ts", "adapters/postgres/from-env.ts"), undefined);
  assert.match(
    layeringViolation("functions/rerank/app.ts", "compose/server.ts") ?? "",
    /only its entries/,
  );
  assert.equal(layeringViolation("functions/rerank/server.ts", "compose/server.ts"), undefined);
  assert.equal(
    layeringViolation("functions/evaluate/scheduled-entry.ts", "compose/runtime.ts"),
    undefined,
  );
  assert.match(
    layeringViolation("adapters/postgres/index.ts", "compose/runtime.ts") ?? "",
    /an adapter implements a port/,
  );
  assert.match(
    layeringViolation("adapters/postgres/index.ts", "functions/embed/app.ts") ?? "",
    /an adapter implements a port/,
  );
  assert.equal(layeringViolation("adapters/postgres/index.ts", "shared/errors.ts"), undefined);
});

Deno.test("layering: shared/ sends no prompt; core/ holds what does, under the functions", () => {
  assert.match(
    layeringViolation("shared/rerank/score.ts", "prompts/rerank.ts") ?? "",
    /shared\/ imports nothing from core\/ or prompts\//,
  );
  assert.match(
    layeringViolation("shared/pipeline.ts", "core/rerank/batch.ts") ?? "",
    /shared\/ imports nothing from core\//,
  );
  assert.match(
    layeringViolation("core/rerank/batch.ts", "functions/rerank/rerank.ts") ?? "",
    /core\/ serves the functions/,
  );
  assert.equal(layeringViolation("core/rerank/batch.ts", "prompts/rerank.ts"), undefined);
  assert.equal(layeringViolation("functions/rerank/rebel.ts", "core/rerank/batch.ts"), undefined);
});

Deno.test("layering: the rule keeps providers beside the functions and shared/ off them", () => {
  assert.match(
    layeringViolation("shared/health/report.ts", "providers/offline/model.ts") ?? "",
    /only compose\/ picks one/,
  );
  assert.equal(layeringViolation("compose/runtime.ts", "providers/offline/model.ts"), undefined);
  assert.match(
    layeringViolation("providers/offline/tasks/rubric.ts", "functions/rerank/rerank.ts") ?? "",
    /a provider imports no function/,
  );
  assert.equal(
    layeringViolation("providers/offline/tasks/answer.ts", "prompts/answer.ts"),
    undefined,
  );
  assert.match(layeringViolation("providers/offline/model.ts", "tests/x.ts") ?? "", /tests/);
});

/** Lines of the product's source (tests, scripts and `_test.ts` files left out), by top folder. */
async function productLines(): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  const count = async (path: string, room: string) => {
    const text = await Deno.readTextFile(join(ROOT, path));
    lines.set(
      room,
      (lines.get(room) ?? 0) + text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
    );
  };
  for await (const entry of Deno.readDir(ROOT)) {
    if (entry.isFile && entry.name.endsWith(".ts")) await count(entry.name, ".");
  }
  for (
    const room of [
      "functions",
      "shared",
      "core",
      "adapters",
      "compose",
      "providers",
      "prompts",
      "cli",
      "lib",
      "workers",
    ]
  ) {
    for await (const file of sourceFiles(room)) {
      if (!file.endsWith("_test.ts")) await count(file, room);
    }
  }
  return lines;
}

Deno.test("layering: shared/ stays the small ground floor, at most a quarter of the product", async () => {
  const lines = await productLines();
  const total = [...lines.values()].reduce((sum, n) => sum + n, 0);
  const shared = lines.get("shared") ?? 0;
  assert.ok(total > 30_000, `only ${total} lines read: the count is broken`);
  assert.ok(
    shared / total <= 0.25,
    `shared/ holds ${shared} of ${total} lines (${(100 * shared / total).toFixed(1)} %): ` +
      "adapters go to adapters/, the composition to compose/, logic that prompts to core/",
  );
});

Deno.test("layering: no import cycle anywhere in the repository", async () => {
  // Everything but node_modules and build output: product, entries, scripts and tests.
  const graph = await importGraph([""]);
  assert.ok(graph.size > 300, `only ${graph.size} files read: the scan is broken`);
  assert.ok(graph.has("compose/server.ts") && graph.has("providers/offline/model.ts"));
  assert.deepEqual(importCycles(graph), []);
});

Deno.test("importCycles() finds every cycle in a synthetic graph, and none in a tree", () => {
  const graph = new Map<string, string[]>([
    ["server.ts", ["auth.ts", "env.ts"]],
    ["auth.ts", ["env.ts", "server.ts"]], // the cycle AppEnv once made
    ["env.ts", []],
    ["app.ts", ["webhook.ts"]],
    ["webhook.ts", ["schema.ts", "app.ts"]],
    ["schema.ts", []],
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts", "node_modules/x.ts"]], // an edge out of the graph is not followed
    ["c.ts", ["a.ts"]],
    ["self.ts", ["self.ts"]],
  ]);
  assert.deepEqual(importCycles(graph), [
    ["a.ts", "b.ts", "c.ts", "a.ts"],
    ["app.ts", "webhook.ts", "app.ts"],
    ["auth.ts", "server.ts", "auth.ts"],
    ["self.ts", "self.ts"],
  ]);
  const tree = new Map<string, string[]>([
    ["server.ts", ["auth.ts", "env.ts"]],
    ["auth.ts", ["env.ts"]],
    ["env.ts", []],
    ["diamond.ts", ["server.ts", "auth.ts"]],
  ]);
  assert.deepEqual(importCycles(tree), []);
});

Deno.test("importCycles() walks a long chain without overflowing the stack", () => {
  const length = 50_000;
  const graph = new Map<string, string[]>();
  for (let i = 0; i < length; i++) graph.set(`f${i}.ts`, [`f${(i + 1) % length}.ts`]);
  const cycles = importCycles(graph);
  assert.equal(cycles.length, 1);
  assert.equal(cycles[0]!.length, length + 1);
});
