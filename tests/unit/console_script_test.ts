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
// Plain string work, no DOM: the one client file a test can import.
import { EventReader } from "../../functions/orchestrator/console/client/sse.ts";

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

Deno.test("the page reads /v1/query's events however the stream is cut, CRLF or LF", () => {
  const reader = new EventReader();
  const stream = 'event: retrieval-end\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: a comment\n\n' +
    'data: plain\n\nevent: done\ndata: {}\n\nevent: usage\ndata: {"total_ms"';
  const events = [];
  for (let at = 0; at < stream.length; at += 7) {
    events.push(...reader.push(stream.slice(at, at + 7)));
  }
  assert.deepEqual(events, [
    { name: "retrieval-end", data: '{"a":\n1}' },
    { name: "message", data: "plain" },
    { name: "done", data: "{}" },
  ]);
  assert.deepEqual(reader.push(": 3}\n\n"), [{ name: "usage", data: '{"total_ms": 3}' }]);
});
