/**
 * The newcomer's question, "which folder holds this route's handler, logic
 * and prompt?", answered by the table in docs/layout.md and held to the code:
 * every route of the OpenAPI document has a row and every row a route; the
 * handler registers the path; the logic file and the prompts are among what
 * the handler imports, directly or through others.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { importGraph } from "../helpers/import_graph.ts";
import { ROOT } from "./commands.ts";

type Row = { route: string; handler: string; logic: string; prompts: string[]; promptCell: string };

/** The rows of the `## From a route to its code` table. */
export function routeRows(markdown: string): Row[] {
  const section = markdown.split("\n## From a route to its code\n")[1]?.split("\n## ")[0] ?? "";
  const rows: Row[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    const route = /^`([A-Z]+ \/\S*)`$/.exec(cells[0] ?? "")?.[1];
    if (!route || cells.length !== 4) continue;
    const code = (cell: string) => /^`([^`]+)`$/.exec(cell)?.[1] ?? "";
    rows.push({
      route,
      handler: code(cells[1]!),
      logic: code(cells[2]!),
      prompts: [...cells[3]!.matchAll(/`(prompts\/[^`]+)`/g)].map((match) => match[1]!),
      promptCell: cells[3]!,
    });
  }
  return rows;
}

/** `prompts/item-*.ts` as the prompt files it names. */
function expand(pattern: string, files: string[]): string[] {
  const regex = new RegExp(
    `^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace("*", "[^/]*")}$`,
  );
  return files.filter((file) => regex.test(file));
}

Deno.test("routeRows() reads the route table's rows and their prompt files", () => {
  const markdown = [
    "# Layout",
    "## From a route to its code",
    "",
    "| route | handler | logic | prompts |",
    "|---|---|---|---|",
    "| `POST /v1/fuse` | `functions/fuse/app.ts` | `functions/fuse/fuse.ts` | `prompts/query-variations.ts` |",
    "| `GET /healthz` | `compose/server.ts` | `compose/health-probe.ts` | — |",
    "",
    "## The tree",
    "| `GET /not-in-the-table` | `a.ts` | `b.ts` | — |",
  ].join("\n");
  assert.deepEqual(routeRows(markdown).map((row) => [row.route, row.prompts]), [
    ["POST /v1/fuse", ["prompts/query-variations.ts"]],
    ["GET /healthz", []],
  ]);
});

Deno.test("docs/layout.md names, for every route, the handler, logic and prompts that serve it", async () => {
  const rows = routeRows(await Deno.readTextFile(`${ROOT}/docs/layout.md`));
  const response = await createSiftApp().request("/openapi.json");
  const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) =>
      `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`
    )
  );
  assert.ok(routes.length >= 25, `only ${routes.length} routes in the document`);
  assert.deepEqual(rows.map((row) => row.route).sort(), routes.sort());

  const graph = await importGraph([
    "shared",
    "core",
    "adapters",
    "compose",
    "functions",
    "providers",
    "prompts",
  ]);
  const promptFiles = [...graph.keys()].filter((file) => file.startsWith("prompts/"));
  const reach = (from: string) => {
    const seen = new Set<string>([from]);
    const stack = [from];
    while (stack.length > 0) {
      for (const target of graph.get(stack.pop()!) ?? []) {
        if (!seen.has(target)) seen.add(target), stack.push(target);
      }
    }
    return seen;
  };
  const problems: string[] = [];
  for (const { route, handler, logic, prompts, promptCell } of rows) {
    const path = route.split(" ")[1]!;
    if (!graph.has(handler)) {
      problems.push(`${route}: handler ${handler} is not a source file`);
      continue;
    }
    const text = await Deno.readTextFile(`${ROOT}/${handler}`);
    if (!text.includes(`"${path}"`)) {
      problems.push(`${route}: ${handler} does not register "${path}"`);
    }
    const reached = reach(handler);
    if (!reached.has(logic)) problems.push(`${route}: ${handler} does not import ${logic}`);
    if (prompts.length === 0 && !/^—|^as `/.test(promptCell)) {
      problems.push(`${route}: the prompts cell names no prompts/ file and does not start with —`);
    }
    for (const pattern of prompts) {
      const files = expand(pattern, promptFiles);
      if (files.length === 0) problems.push(`${route}: no prompt file is ${pattern}`);
      for (const file of files) {
        if (!reached.has(file)) problems.push(`${route}: ${handler} does not reach ${file}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
