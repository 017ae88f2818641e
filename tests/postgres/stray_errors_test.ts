/**
 * The Deno entries' handler for stray errors (`keepServingPastClientErrors`):
 * one from the postgres.js client (a query whose promise nobody awaits, a
 * throw from one of its timers) is one log line and the process lives on;
 * any other is sift's own bug and still ends the process, as Deno ends it.
 * Each case runs in a process of its own, since the handler is process-wide.
 */
import assert from "node:assert/strict";
import { freePort } from "../e2e/service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function runWithHandler(body: string) {
  const code = `
    import postgres from "postgres";
    import { keepServingPastClientErrors } from "./adapters/deno/stray-errors.ts";
    keepServingPastClientErrors();
    ${body}
    await new Promise((resolve) => setTimeout(resolve, 1500));
    console.log("still serving");
    Deno.exit(0);
  `;
  const { code: exit, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { exit, stdout: text(stdout), stderr: text(stderr) };
}

Deno.test("a rejection of the Postgres client nobody awaits is one log line, and the process serves on", async () => {
  // Nothing listens on the port: the query fails, and its promise was never awaited.
  const run = await runWithHandler(`
    const sql = postgres("postgres://sift@127.0.0.1:${freePort()}/sift", { max: 1, connect_timeout: 1 });
    sql\`SELECT 1\`.execute();
  `);
  assert.equal(run.exit, 0, run.stderr);
  assert.match(run.stdout, /still serving/);
  const lines = run.stderr.trim().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  assert.match(
    lines[0]!,
    /^sift: an unhandled rejection from the Postgres client, kept serving: Error: .*ECONNREFUSED/,
  );
});

Deno.test("a stray error of sift's own still ends the process, with its stack", async () => {
  const run = await runWithHandler(`Promise.reject(new Error("a bug in sift"));`);
  assert.notEqual(run.exit, 0);
  assert.doesNotMatch(run.stdout, /still serving/);
  assert.match(run.stderr, /Uncaught \(in promise\) Error: a bug in sift/);
  assert.doesNotMatch(run.stderr, /kept serving/);
});
