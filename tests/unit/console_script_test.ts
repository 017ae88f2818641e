/**
 * The console's script is built from typed modules
 * (functions/orchestrator/console/client/) into script.gen.ts by
 * `deno task build:console`: the generated file must be what a build makes
 * now (edit the client, forget the task, and this fails), the bundle holds
 * the client's files only (no server code reaches the browser), and the
 * client type-checks with the DOM's types (its deno.json), which
 * `deno test` alone would not do: nothing here imports it.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { bundleConsole, CLIENT_DIR, consoleModule, TARGET } from "../../scripts/build-console.ts";
import { CONSOLE_SCRIPT } from "../../functions/orchestrator/console/script.gen.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("script.gen.ts is what deno task build:console makes of the client now", async () => {
  const { script, inputs } = await bundleConsole();
  const stored = await Deno.readTextFile(`${ROOT}/${TARGET}`);
  assert.ok(
    stored === consoleModule(script),
    `${TARGET} is stale: run \`deno task build:console\` after editing ${CLIENT_DIR}`,
  );
  assert.equal(CONSOLE_SCRIPT, script, "the module's string is the script, escaped exactly");
  assert.ok(inputs.includes(`${CLIENT_DIR}main.ts`), inputs.join(", "));
  assert.deepEqual(inputs.filter((file) => !file.startsWith(CLIENT_DIR)), []);
});

Deno.test("the console's client type-checks with the DOM's types and without Deno's", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["check", CLIENT_DIR],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
});
