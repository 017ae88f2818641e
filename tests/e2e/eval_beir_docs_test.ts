/**
 * The BEIR table in docs/evaluation-datasets.md is what the two commands
 * above it print: they are run as written (their `/tmp/...` folders moved to
 * a temporary one), and every column but `s/q` (seconds, the machine's) must
 * match. The table once showed numbers no fresh clone reproduced; now a
 * change that moves them fails here until the page shows the new ones, with
 * the date they were produced.
 */
import assert from "node:assert/strict";
import { aragogAvailable } from "../helpers/aragog.ts";
import { commandsOf, ROOT, runnable } from "../docs/commands.ts";

/** The section's sh commands and the plain fenced block after them (the table). */
function documented(markdown: string): { commands: string[]; table: string[] } {
  const section = markdown.split("\n## The table\n")[1]?.split("\n## ")[0] ?? "";
  const table = /```sh\n[\s\S]*?```\n\n```\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return { commands: commandsOf(section), table: table.trimEnd().split("\n") };
}

/** A table row's cells, `s/q` (the third from the end) blanked. */
const withoutSeconds = (row: string) => {
  const cells = row.trim().split(/\s+/);
  cells.splice(cells.length - 3, 1, "-");
  return cells.join(" ");
};

Deno.test({
  name: "the BEIR table in docs/evaluation-datasets.md is what its commands print",
  ignore: !aragogAvailable(),
  async fn() {
    const markdown = await Deno.readTextFile(`${ROOT}/docs/evaluation-datasets.md`);
    const { commands, table } = documented(markdown);
    assert.equal(commands.length, 2, commands.join("\n"));
    assert.match(table[0]!, /^strategy\s+mode\s+nDCG@10/);
    assert.match(markdown, /Produced on \d{4}-\d{2}-\d{2}/);
    const directory = await Deno.makeTempDir({ prefix: "sift-beir-docs-" });
    try {
      let printed = "";
      for (const command of commands) {
        const output = await new Deno.Command("sh", {
          args: ["-c", runnable(command).replaceAll("/tmp/", `${directory}/`)],
          cwd: ROOT,
          clearEnv: true,
          env: {
            PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:${Deno.env.get("PATH") ?? ""}`,
            HOME: Deno.env.get("HOME") ?? "",
            SIFT_DATA_DIR: `${directory}/data`,
            NO_COLOR: "1",
          },
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(180_000),
        }).output();
        const text = new TextDecoder().decode(output.stdout);
        assert.equal(output.code, 0, `${command}\n${new TextDecoder().decode(output.stderr)}`);
        printed = text;
      }
      const lines = printed.split("\n");
      const header = lines.findIndex((line) => line.startsWith("strategy "));
      assert.ok(header >= 0, printed);
      const rows = lines.slice(header, header + table.length);
      assert.deepEqual(rows.map(withoutSeconds), table.map(withoutSeconds));
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});
