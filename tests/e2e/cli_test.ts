/** The terminal commands speak to people: usage on --help, one line for a known failure. */
import assert from "node:assert/strict";
import { freePort } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function run(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", SIFT_DATA_DIR: await Deno.makeTempDir(), ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at /m, text);

Deno.test("ask and ingest print their usage on --help and exit 0", async () => {
  for (const script of ["scripts/ask.ts", "scripts/ingest.ts"]) {
    const { code, stdout } = await run([script, "--help"]);
    assert.equal(code, 0, script);
    assert.match(stdout, /^usage: deno task (ask|ingest)/, script);
  }
});

Deno.test("known failures are one line and a non-zero exit, with no stack trace", async () => {
  const missing = await run(["scripts/ingest.ts", "missing.jsonl"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr.trim(), /^error: .*missing\.jsonl.*no such file/);
  noStackTrace(missing.stderr);

  const badFlag = await run(["scripts/ask.ts", "--bogus", "x"]);
  assert.equal(badFlag.code, 2);
  assert.match(badFlag.stderr, /^error: unknown option --bogus\n/);
  noStackTrace(badFlag.stderr);

  const unreachable = await run(["scripts/ask.ts", "What is sift?"], {
    SIFT_URL: `http://127.0.0.1:${freePort()}`,
  });
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr.trim(), /^error: no sift answers at/);
  noStackTrace(unreachable.stderr);

  const badEnv = await run(["main.ts"], { PORT: "not-a-port" });
  assert.equal(badEnv.code, 1);
  assert.match(badEnv.stderr.trim(), /^sift cannot start\. Invalid environment: PORT/);
  noStackTrace(badEnv.stderr);
});

Deno.test("starting on a busy port is one line naming the fix", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const busy = await run(["main.ts"], { PORT: String(listener.addr.port), DEMO_CORPUS: "false" });
    assert.equal(busy.code, 1);
    assert.match(busy.stderr.trim(), /^sift cannot start: port \d+ is already in use/);
    noStackTrace(busy.stderr);
  } finally {
    listener.close();
  }
});
