/**
 * Honest health after a torn log tail (#40): a start that cuts the log's last
 * record makes `/healthz` `degraded` (200, `checks.index: "degraded"`, the
 * count of records and bytes and when), across clean restarts and their
 * checkpoints, until `DELETE /v1/index/recovered` acknowledges it; a restart
 * after that says `ok`. Each "process" is an app over a fresh `FileIndexLog`
 * on the same directory; a crash is the log closed with no checkpoint.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import { FileIndexLog } from "../../lib/vector-index/deno/mod.ts";
import { withRecovery } from "../../compose/index-recovery.ts";

const ENV = { DEMO_CORPUS: "false", API_KEYS: "k-operator,k-acme:acme" };
const OPERATOR = { authorization: "Bearer k-operator" };

type Cut = { file: string; offset: number; dropped_records: number; dropped_bytes: number };
type Health = {
  status: string;
  providers: Record<string, string>;
  index?: { status: string; recovered?: Cut & { at: string; earlier?: Cut[] } };
  checks: Record<string, string>;
  problems?: Record<string, string>;
};

/** One process's worth of sift over `dir`: its app, and its log to close or checkpoint. */
function start(dir: string) {
  const log = new FileIndexLog(`${dir}/index.log`);
  const runtime = new Runtime({ log });
  const app = createSiftApp({ runtime });
  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }, ENV);
  return {
    async ingest(id: string) {
      const documents = [{ id, text: `Document ${id} about lighthouses. `.repeat(8) }];
      const response = await call("POST", "/v1/documents", OPERATOR, { documents });
      assert.equal(response.status, 201, await response.text());
    },
    /** Once the index has loaded (503 `loading` until then). */
    async health(): Promise<Health> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const response = await call("GET", "/healthz", {});
        if (response.status === 503 && Date.now() < deadline) {
          await response.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        assert.equal(response.status, 200, "degraded keeps the route's 200");
        return await response.json();
      }
    },
    async ids(): Promise<string[]> {
      const response = await call("GET", "/v1/documents", OPERATOR);
      const body = await response.json() as { data: { id: string }[] };
      return body.data.map((document) => document.id).sort();
    },
    acknowledge: (headers: Record<string, string> = OPERATOR) =>
      call("DELETE", "/v1/index/recovered", headers),
    /** kill -9: nothing checkpointed, the log left as the last append left it. */
    crash: () => log.close(),
    /** SIGTERM: a checkpoint of everything, which folds the logs away. */
    async stop() {
      await runtime.flush();
      log.close();
    },
  };
}

/** Cuts the last `bytes` bytes off the newest log, as a crash mid-append leaves it. */
async function tear(dir: string, bytes: number): Promise<{ file: string; size: number }> {
  const logs = [...Deno.readDirSync(dir)].map((entry) => entry.name)
    .filter((name) => /^index(\.\d+)?\.log$/.test(name))
    .sort((a, b) => (Number(a.split(".")[1]) || 0) - (Number(b.split(".")[1]) || 0));
  const file = `${dir}/${logs.at(-1)}`;
  const size = (await Deno.stat(file)).size - bytes;
  await Deno.truncate(file, size);
  return { file, size };
}

Deno.test("a torn log tail makes /healthz degraded, across restarts, until an operator acknowledges it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = start(dir);
    await first.ingest("kept-1");
    await first.ingest("kept-2");
    const lastRecordAt = (await Deno.stat(`${dir}/index.log`)).size;
    await first.ingest("torn");
    first.crash();
    const torn = await tear(dir, 5);

    const second = start(dir);
    const health = await second.health();
    assert.equal(health.status, "degraded");
    assert.deepEqual(Object.keys(health.providers).sort(), ["cache", "embeddings", "index", "llm"]);
    assert.equal(health.checks.index, "degraded");
    const { at, ...cut } = health.index!.recovered!;
    assert.deepEqual(cut, {
      file: torn.file,
      offset: lastRecordAt,
      dropped_records: 1,
      dropped_bytes: torn.size - lastRecordAt,
    });
    assert.ok(Number.isFinite(Date.parse(at)), at);
    assert.match(
      health.problems!.index!,
      new RegExp(
        `cut 1 record \\(${torn.size - lastRecordAt} bytes\\) from the end of .*` +
          "DELETE /v1/index/recovered",
      ),
    );
    assert.deepEqual(await second.ids(), ["kept-1", "kept-2"]);
    // A clean stop checkpoints: the cut log is gone, the notice is not.
    await second.stop();

    const third = start(dir);
    assert.deepEqual((await third.health()).index, health.index, "kept across a checkpoint");
    await third.ingest("later");
    third.crash();
    await tear(dir, 3);

    const fourth = start(dir);
    const twice = await fourth.health();
    assert.equal(twice.status, "degraded");
    assert.deepEqual(twice.index!.recovered!.earlier, [health.index!.recovered], "both cuts kept");
    assert.match(twice.problems!.index!, /^2 starts since .* cut 2 records/);

    assert.equal((await fourth.acknowledge({})).status, 401);
    const byTenant = await fourth.acknowledge({ authorization: "Bearer k-acme" });
    assert.equal(byTenant.status, 403, "a tenant's key cannot clear the deployment's notice");
    await byTenant.body?.cancel();
    assert.equal((await fourth.health()).status, "degraded");

    const acknowledged = await fourth.acknowledge();
    assert.equal(acknowledged.status, 200);
    const { earlier, ...latest } = twice.index!.recovered!;
    assert.deepEqual(await acknowledged.json(), { acknowledged: [...earlier!, latest] });
    const after = await fourth.health();
    assert.equal(after.status, "ok");
    assert.deepEqual(after.index, { status: "ok" });
    assert.equal(after.checks.index, "ok");
    assert.equal(after.problems, undefined);
    const again = await fourth.acknowledge();
    assert.deepEqual(await again.json(), { acknowledged: [] }, "acknowledging twice is harmless");
    fourth.crash(); // no checkpoint: the acknowledgement alone must last

    const fifth = start(dir);
    const restarted = await fifth.health();
    assert.equal(restarted.status, "ok");
    assert.deepEqual(restarted.index, { status: "ok" });
    assert.deepEqual(await fifth.ids(), ["kept-1", "kept-2"]);
    await fifth.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an index with no log of its own has nothing to acknowledge, and its health is untouched", async () => {
  const app = createSiftApp({ runtime: new Runtime() });
  const response = await app.request(
    "/v1/index/recovered",
    { method: "DELETE", headers: OPERATOR },
    ENV,
  );
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { acknowledged: [] });
  // Upstash, Postgres and the Durable Object report no index state: the probe's grades stand.
  const report = {
    checks: { llm: "ok", embeddings: "ok", index: "ok", cache: "ok" },
    problems: {},
  } as const;
  assert.equal(withRecovery(report, undefined), report);
  const down = {
    checks: { ...report.checks, index: "down" },
    problems: { index: "damaged" },
  } as const;
  const recovered = { file: "x.log", offset: 0, dropped_records: 1, dropped_bytes: 4, at: "now" };
  assert.equal(withRecovery(down, { status: "ok", recovered }), down, "down stays down");
});
