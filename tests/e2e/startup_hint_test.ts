/** The `try: curl ...` line `deno task start` prints answers as printed, keys or not. */
import assert from "node:assert/strict";
import { startService } from "./service.ts";

const hasCurl = await new Deno.Command("sh", { args: ["-c", "command -v curl"] }).output()
  .then((result) => result.success, () => false);

/** Runs the hint's command in a shell (as a person pastes it), bounded. */
async function runHint(output: string, env: Record<string, string>) {
  const line = output.split("\n").find((line) => line.startsWith("try: curl "));
  assert.ok(line, `no try: line in\n${output}`);
  const result = await new Deno.Command("sh", {
    args: ["-c", line.slice("try: ".length) + " --silent --show-error --fail-with-body"],
    env,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { line, code: result.code, stdout: decode(result.stdout), stderr: decode(result.stderr) };
}

Deno.test({
  name: "with API_KEYS, the start-up hint's curl carries the key and gets an answer, not a 401",
  ignore: !hasCurl && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "sift-hint-" });
    try {
      await using service = await startService({
        SIFT_DATA_DIR: directory,
        API_KEYS: "hint-key-1,hint-key-2",
      });
      const output = service.output();
      assert.ok(!output.includes("hint-key-1"), "a key was printed");
      assert.match(output, /export SIFT_API_KEY=/);
      const hint = await runHint(output, { SIFT_API_KEY: "hint-key-2" });
      assert.match(hint.line, /-H "Authorization: Bearer \$SIFT_API_KEY"/);
      assert.equal(hint.code, 0, hint.stderr + hint.stdout);
      assert.match(hint.stdout, /event: answer-end/);
      // Without the export, the same line is refused: the key is what makes it work.
      const without = await runHint(output, {});
      assert.notEqual(without.code, 0);
      assert.match(without.stdout + without.stderr, /401/);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});

Deno.test({
  name: "without API_KEYS, the start-up hint's curl answers as printed",
  ignore: !hasCurl && Deno.env.get("CI") !== "true",
  sanitizeResources: false,
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "sift-hint-" });
    try {
      await using service = await startService({ SIFT_DATA_DIR: directory });
      const hint = await runHint(service.output(), {});
      assert.doesNotMatch(hint.line, /Authorization/);
      assert.equal(hint.code, 0, hint.stderr);
      assert.match(hint.stdout, /event: answer-end/);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});
