import assert from "node:assert/strict";

const PROMPTS = new URL("../../prompts/", import.meta.url);

Deno.test("prompts/README.md lists every prompt with its current version", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", PROMPTS));
  const prompts: { id: string; version: string; file: string }[] = [];
  for await (const entry of Deno.readDir(PROMPTS)) {
    if (!entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, PROMPTS));
    for (const match of text.matchAll(/id: "([\w-]+)",\s*version: (\d+)/g)) {
      prompts.push({ id: match[1]!, version: match[2]!, file: entry.name });
    }
  }
  assert.ok(prompts.length >= 20, `found ${prompts.length} prompts`);
  for (const { id, version, file } of prompts) {
    const row = new RegExp("^\\| `" + id + "`\\s*\\| " + version + "\\s*\\|", "m");
    assert.match(readme, row, `${file}: ${id}@${version} is not in prompts/README.md`);
  }
});
