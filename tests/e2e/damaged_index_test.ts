/**
 * A byte flipped in the middle of a real index log (no crash tears the middle
 * of a log): every index route and `/healthz` say which file, the byte and
 * what to do, in the response as well as the log, and the file is left as it was.
 */
import assert from "node:assert/strict";
import { startService } from "./service.ts";

const ENV = { DEMO_CORPUS: "false", NO_COLOR: "1" };

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test({
  name:
    "a flipped byte mid-log: /healthz and every index route name the file, the offset and the fix; nothing is overwritten",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir();
    const env = { ...ENV, SIFT_DATA_DIR: dataDir };
    {
      const first = await startService(env);
      for (let i = 0; i < 12; i++) {
        const response = await fetch(`${first.url}/v1/documents`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            documents: [{
              id: `doc-${i}`,
              text: `Document ${i} on topic ${i} of twelve. `.repeat(20),
            }],
          }),
        });
        assert.equal(response.status, 201);
        await response.body?.cancel();
      }
      // Killed, not stopped: a clean stop would fold the log into a checkpoint.
      await first.crash();
    }
    const log = `${dataDir}/index.log`;
    const bytes = await Deno.readFile(log);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    await Deno.writeFile(log, bytes);
    const before = await sha256(log);
    const filesBefore = [...Deno.readDirSync(dataDir)].map((entry) => entry.name).sort();

    await using service = await startService(env);
    const health = await (await fetch(`${service.url}/healthz`)).json() as {
      status: string;
      checks: { index: string };
      problems: { index: string };
    };
    assert.equal(health.status, "degraded");
    assert.equal(health.checks.index, "down");
    const damage = new RegExp(
      `The index file ${log.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is damaged at byte (\\d+)`,
    );
    const offset = Number(health.problems.index.match(damage)?.[1]);
    assert.ok(offset > 0 && offset <= middle, health.problems.index);
    assert.match(health.problems.index, /nothing was changed/);
    assert.match(health.problems.index, /Restore .* from a backup, or stop sift, move it aside/);

    const json = { "content-type": "application/json" };
    const routes: Array<[string, string, unknown?]> = [
      ["POST", "/v1/search", { query: "topic" }],
      ["POST", "/v1/documents", { documents: [{ id: "new", text: "A new document." }] }],
      ["DELETE", "/v1/documents/doc-1"],
      ["POST", "/v1/fuse", { query: "topic" }],
      ["POST", "/v1/query", { query: "topic" }],
    ];
    for (const [method, path, body] of routes) {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: json,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (path === "/v1/query") {
        // A stream: the damage is its error event, naming the step that met it.
        assert.match(text, /event: error\ndata: .*"step":"fuse"/, text);
      } else {
        assert.equal(response.status, 503, `${method} ${path}: ${text}`);
        assert.match(response.headers.get("content-type") ?? "", /application\/json/);
        assert.match(text, /"type":"index_damaged"/, `${method} ${path}: ${text}`);
      }
      assert.match(text, damage, `${method} ${path}`);
      assert.match(text, new RegExp(`at byte ${offset} `), `${method} ${path}`);
    }
    assert.match(service.output(), damage, "the server log says it too");
    await service.close();
    assert.equal(await sha256(log), before, "the damaged log is left exactly as it was");
    const filesAfter = [...Deno.readDirSync(dataDir)].map((entry) => entry.name).sort();
    assert.deepEqual(
      filesAfter.filter((name) => name.startsWith("index")),
      filesBefore.filter((name) => name.startsWith("index")),
      "no index file written or removed",
    );
  },
});
