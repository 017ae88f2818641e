/** The terminal commands speak to people: usage on --help, one line for a known failure. */
import assert from "node:assert/strict";
import { freePort, SERVE_PERMISSIONS } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function run(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...SERVE_PERMISSIONS,
      ...args,
    ],
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

Deno.test("folder ingest, piped, is a numbered plain line per file and a summary with files/s", async () => {
  const folder = await Deno.makeTempDir({ prefix: "sift-ingest-folder-" });
  try {
    for (const [name, text] of [["a.md", "# Alpha\n\nAardvarks."], ["b.md", "# Beta\n\nBees."]]) {
      await Deno.writeTextFile(`${folder}/${name}`, text!);
    }
    await Deno.writeFile(
      `${folder}/c.png`,
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]),
    );
    // PORT where nothing listens: ingest runs in-process over a fresh SIFT_DATA_DIR.
    const ingest = await run(["scripts/ingest.ts", folder], {
      PORT: String(freePort()),
      DEMO_CORPUS: "false",
    });
    assert.equal(ingest.code, 1, ingest.stderr); // the image is skipped
    for (const control of ["\r", "\x1b"]) {
      assert.ok(!ingest.stdout.includes(control), `${JSON.stringify(control)} in a pipe`);
    }
    const lines = ingest.stdout.split("\n").filter((line) => line.startsWith("  ["));
    assert.equal(lines.length, 3, ingest.stdout);
    assert.match(ingest.stdout, /\[\d\/3\] .*a\.md: ingested, \d+ chunks/);
    assert.match(ingest.stdout, /\[\d\/3\] .*c\.png: skipped \(/);
    assert.match(
      ingest.stdout,
      /ingested 2 file\(s\) as \d+ chunks into default in [\d.]+ s \([\d.]+ files\/s\)/,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

const hasScript = await new Deno.Command("sh", { args: ["-c", "command -v script"] }).output()
  .then((result) => result.success, () => false);

Deno.test({
  name: "folder ingest on a terminal redraws one status line with the count and files/s",
  ignore: !hasScript,
  async fn() {
    const folder = await Deno.makeTempDir({ prefix: "sift-ingest-tty-" });
    try {
      for (const name of ["a", "b", "c"]) {
        await Deno.writeTextFile(`${folder}/${name}.md`, `# ${name}\n\nText about ${name}.`);
      }
      const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
      const ingest = [Deno.execPath(), "run", "-A", "scripts/ingest.ts", folder].map(quote);
      // util-linux's `script` gives the command a pseudo-terminal, as a person's shell does.
      const output = await new Deno.Command("script", {
        args: ["-qec", ingest.join(" "), "/dev/null"],
        cwd: ROOT,
        env: {
          SIFT_DATA_DIR: await Deno.makeTempDir(),
          PORT: String(freePort()),
          DEMO_CORPUS: "false",
        },
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(120_000),
      }).output();
      const text = new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, text);
      assert.match(text, /\r3\/3 files \(100%\) · [\d.]+ files\/s · done/);
      assert.doesNotMatch(text, /\[1\/3\]/, "no line per file on a terminal");
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
