/**
 * The PGlite command docs/postgres.md shows writes its database outside the
 * checkout: a relative `--db` (it was `.pglite`) put it in the repository,
 * where it showed in `git status`. The server makes only the last part of
 * `--db`, so the page makes the parent first.
 */
import assert from "node:assert/strict";
import { ROOT } from "./commands.ts";

/** The fenced block of the PGlite section, continued lines joined. */
function pgliteCommands(markdown: string): string[] {
  const section = markdown.split("\n## Locally, without a server: PGlite\n")[1]?.split("\n## ")[0];
  const block = section?.split("```text\n")[1]?.split("```")[0] ?? "";
  return block.replace(/\\\n\s*/g, "").split("\n").filter(Boolean);
}

/** `~` and `$HOME` as one spelling; quotes dropped. */
const home = (path: string) => path.replace(/^"|"$/g, "").replace(/^(~|\$HOME|\$\{HOME\})\//, "~/");

Deno.test("docs/postgres.md's PGlite command keeps its database outside the repository", async () => {
  const commands = pgliteCommands(await Deno.readTextFile(`${ROOT}/docs/postgres.md`));
  const server = commands.find((command) => command.includes("pglite-server"));
  assert.ok(server, commands.join("\n"));
  const db = home(/--db=("[^"]+"|\S+)/.exec(server)?.[1] ?? "");
  assert.match(db, /^(~\/|\/)/, `--db=${db} is relative: it lands in the checkout`);
  assert.ok(!db.startsWith(ROOT), `--db=${db} is inside the checkout`);
  const parent = db.slice(0, db.lastIndexOf("/"));
  const made = commands.slice(0, commands.indexOf(server))
    .some((command) => /^mkdir -p /.test(command) && home(command.slice(9).trim()) === parent);
  assert.ok(made, `nothing makes ${parent} before the server starts`);
});
