/**
 * One owner per data directory, with real processes: a second sift on a
 * directory in use exits at once with one line naming the directory and the
 * owner's pid (`deno task start` and `deno task serve index` alike); after the
 * owner is killed with SIGKILL a new start takes the directory over, and the
 * document the dead owner acknowledged is there.
 */
import assert from "node:assert/strict";
import { freePort, SERVE_PERMISSIONS, startService } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs an entry that is expected to exit by itself; fails if it is still up after 30 s. */
async function runToExit(env: Record<string, string>, entry: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...SERVE_PERMISSIONS,
      ...entry,
    ],
    cwd: ROOT,
    env: { ...env, PORT: String(freePort()), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr).trim() };
}

Deno.test("a second sift on a data directory in use exits naming it and its owner", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-lock-" });
  const env = { SIFT_DATA_DIR: dataDir, DEMO_CORPUS: "false" };
  const owner = await startService(env);
  try {
    for (const entry of [["main.ts"], ["scripts/serve.ts", "index"]]) {
      const second = await runToExit(env, entry);
      assert.equal(second.code, 1, second.stderr);
      const lines = second.stderr.split("\n");
      assert.equal(lines.length, 1, second.stderr);
      assert.match(lines[0]!, new RegExp(`data directory ${dataDir} is in use`));
      assert.match(lines[0]!, new RegExp(`\\(pid ${owner.pid}\\)`));
    }
    // The owner was not disturbed.
    assert.equal((await fetch(`${owner.url}/healthz`).then((r) => r.json())).status, "ok");
  } finally {
    await owner.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("after the owner is killed with SIGKILL, a new start owns the directory and loses nothing", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-lock-" });
  const env = { SIFT_DATA_DIR: dataDir, DEMO_CORPUS: "false" };
  const first = await startService(env);
  let next: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    const ingested = await fetch(`${first.url}/v1/documents`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documents: [{ id: "kept", text: "a lighthouse keeper's log" }] }),
    });
    assert.equal(ingested.status, 201, await ingested.text());
    await first.crash();
    next = await startService(env);
    const found = await fetch(`${next.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "lighthouse keeper", mode: "sparse" }),
    }).then((r) => r.json()) as { results: { doc_id: string }[] };
    assert.deepEqual(found.results.map((hit) => hit.doc_id), ["kept"]);
    // And the new owner's pid is the one a third process is told about.
    const third = await runToExit(env, ["main.ts"]);
    assert.equal(third.code, 1);
    assert.match(third.stderr, new RegExp(`\\(pid ${next.pid}\\)`));
  } finally {
    await first.close();
    await next?.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
