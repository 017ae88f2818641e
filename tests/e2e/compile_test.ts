/**
 * `deno task compile --launcher` writes `sift`, a launcher that runs the
 * cached sources with this machine's deno (no npx, no resolution), and its
 * commands answer `--help` as their tasks do. `deno compile` itself needs a
 * download (dl.deno.land), so it is not tried here.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

async function run(command: string, args: string[], cwd = ROOT) {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("deno task compile --launcher writes a sift whose commands answer --help", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-compile-" });
  try {
    const out = `${dir}/bin/sift`;
    const written = await run(Deno.execPath(), [
      "task",
      "--quiet",
      "compile",
      "--launcher",
      "--out",
      out,
    ]);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /a launcher for /);
    assert.ok((await Deno.stat(out)).mode! & 0o100, "executable");

    // From another directory: the launcher finds the project, as `deno task` does.
    const usage = await run(out, ["--help"], dir);
    assert.equal(usage.code, 0, usage.stderr);
    for (const command of ["ask", "ingest", "start"]) {
      assert.match(usage.stdout, new RegExp(command));
    }

    const ask = await run(out, ["ask", "--help"], dir);
    assert.equal(ask.code, 0, ask.stderr);
    assert.match(ask.stdout, /usage: deno task ask/);

    const unknown = await run(out, ["nope"], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command nope/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scripts/sift.ts (what deno compile builds) lists its commands and runs ask's --help", async () => {
  const usage = await run(Deno.execPath(), ["run", "-A", "scripts/sift.ts", "--help"]);
  assert.equal(usage.code, 0, usage.stderr);
  assert.match(usage.stdout, /usage: sift <command>/);
  const ask = await run(Deno.execPath(), ["run", "-A", "scripts/sift.ts", "ask", "--help"]);
  assert.equal(ask.code, 0, ask.stderr);
  assert.match(ask.stdout, /usage: deno task ask/);
});
