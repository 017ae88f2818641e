/**
 * The shared `SiftState` Durable Object under workerd: two Workers from two
 * wrangler configs (the owner defines the class; the other binds it with
 * `script_name`) run in one `wrangler dev` and see one index and one cache,
 * kept in SQLite across a restart. Only the owner is served on the port; the
 * test reaches the other through the owner's `/other/*` service binding.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import { delay, pgrep, startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";
import { denseEmbedder } from "../../scripts/dense-embeddings.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/state/", import.meta.url));
const CONFIGS = [`${FIXTURES}owner.toml`, `${FIXTURES}other.toml`];
const NAMESPACE = "e2e";

function chunk(docId: string, index: number, text: string, vector: number[]): IndexedChunk {
  return {
    id: `${docId}#${index}`,
    text,
    vector,
    metadata: { doc_id: docId, chunk_index: index, title: `Paper ${docId}` },
  };
}

const CHUNKS = [
  chunk("alpha", 0, "Reciprocal rank fusion merges ranked lists", [1, 0, 0, 0]),
  chunk("alpha", 1, "Fusion ignores the raw scores of each list", [0.9, 0.1, 0, 0]),
  chunk("beta", 0, "BM25 weighs rare terms more than common ones", [0, 0, 1, 0]),
];

type Hit = { id: string; score: number; metadata: Record<string, unknown> };

/** Dense 1,536-d chunks, more than one page of the object's load (500 rows). */
const DENSE_NAMESPACE = "e2e-dense";
const embed = denseEmbedder(1536);
const DENSE_CHUNKS = Array.from(
  { length: 600 },
  (_, n) => chunk(`dense-${n}`, 0, `dense passage ${n}`, Array.from(embed(`dense-${n}`))),
);

async function denseSelfMatch(dev: WranglerDev, worker: "owner" | "other", n: number) {
  const body = {
    text: "",
    vector: DENSE_CHUNKS[n]!.vector,
    mode: "dense",
    topK: 3,
    namespace: DENSE_NAMESPACE,
  };
  const [best] = (await ok(dev, worker, "/query", body)).hits as Hit[];
  assert.equal(best?.id, DENSE_CHUNKS[n]!.id);
  // int8 rows refined with their residuals: a self-match is 1 to about 1e-5.
  assert.ok(Math.abs(best!.score - 1) < 1e-3, `score ${best!.score}`);
}

/** `path` on the owner Worker, or on the other one when `worker` is "other". */
async function call(
  dev: WranglerDev,
  worker: "owner" | "other",
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await dev.fetch(worker === "other" ? `/other${path}` : path, init);
  const json = await response.json();
  if (response.ok) assert.equal(json.worker, worker, "answered by the wrong Worker");
  return { status: response.status, json };
}

async function ok(...args: Parameters<typeof call>): Promise<Record<string, unknown>> {
  const { status, json } = await call(...args);
  assert.equal(status, 200, `${args[2]}: ${JSON.stringify(json)}`);
  return json;
}

async function query(
  dev: WranglerDev,
  worker: "owner" | "other",
  vector: number[],
  mode = "dense",
): Promise<Hit[]> {
  const body = { text: "reciprocal rank fusion", vector, mode, topK: 5, namespace: NAMESPACE };
  return (await ok(dev, worker, "/query", body)).hits as Hit[];
}

Deno.test("Workers share one SiftState Durable Object: index and cache, across a restart", async (t) => {
  const persistTo = await Deno.makeTempDir({ prefix: "sift-state-object-" });
  const started: WranglerDev[] = [];
  const start = async () => {
    const dev = await startWranglerDev(CONFIGS, { persistTo });
    started.push(dev);
    await dev.ready("/healthz");
    return dev;
  };
  let passed = false;
  try {
    let dev = await start();

    // A failed step does not throw in the parent: stop at the first one.
    passed = await t.step("both Workers answer with Durable Object adapters", async () => {
      for (const worker of ["owner", "other"] as const) {
        const health = await ok(dev, worker, "/healthz");
        assert.equal(health.index, "durable-object");
        assert.equal(health.cache, "durable-object");
      }
    }) && await t.step("chunks one Worker upserts, the other finds and counts", async () => {
      await ok(dev, "other", "/upsert", { namespace: NAMESPACE, chunks: CHUNKS });
      const hybrid = await query(dev, "owner", [1, 0, 0, 0], "hybrid");
      assert.equal(hybrid[0]?.id, "alpha#0");
      assert.equal(hybrid[0]?.metadata.title, "Paper alpha");
      // Vectors survive the float32 BLOB round trip: a self-match scores 1.
      const dense = await query(dev, "owner", [0, 0, 1, 0]);
      assert.equal(dense[0]?.id, "beta#0");
      assert.ok(Math.abs(dense[0].score - 1) < 1e-6, `score ${dense[0].score}`);
      assert.equal((await ok(dev, "owner", `/count?namespace=${NAMESPACE}`)).count, 3);
    }) &&
      await t.step("a bad chunk is a 400 naming the field, and nothing is written", async () => {
        const { vector: _, ...noVector } = chunk("gamma", 0, "no vector", []);
        const { status, json } = await call(dev, "owner", "/upsert", {
          namespace: NAMESPACE,
          chunks: [chunk("gamma", 1, "valid", [0, 1, 0, 0]), noVector],
        });
        assert.equal(status, 400);
        const error = json.error as { type: string; message: string };
        assert.equal(error.type, "invalid_request");
        assert.match(error.message, /chunks\.1\.vector/);
        assert.equal((await ok(dev, "other", `/count?namespace=${NAMESPACE}`)).count, 3);
      }) &&
      await t.step("documents list in pages by id and read back in chunk order", async () => {
        const first = await ok(dev, "owner", `/documents?namespace=${NAMESPACE}&limit=1`);
        assert.deepEqual(first.documents, [{ id: "alpha", title: "Paper alpha", chunks: 2 }]);
        const cursor = encodeURIComponent(first.cursor as string);
        const second = await ok(
          dev,
          "other",
          `/documents?namespace=${NAMESPACE}&limit=1&cursor=${cursor}`,
        );
        assert.deepEqual(
          (second.documents as { id: string }[]).map((document) => document.id),
          ["beta"],
        );
        assert.equal(second.cursor, undefined);
        const read = await ok(dev, "other", `/document?namespace=${NAMESPACE}&id=alpha`);
        assert.deepEqual((read.chunks as { id: string }[]).map((chunk) => chunk.id), [
          "alpha#0",
          "alpha#1",
        ]);
        const { status, json } = await call(
          dev,
          "owner",
          `/documents?namespace=${NAMESPACE}&cursor=nonsense`,
        );
        assert.equal(status, 400);
        assert.match((json.error as { message: string }).message, /^cursor:/);
      }) &&
      await t.step(
        "a cache value one Worker sets, the other reads; TTL and delete remove it",
        async () => {
          const value = { answer: "42", citations: [1, 2], empty: null };
          await ok(dev, "owner", "/cache/set", { key: "kept", value });
          assert.deepEqual(await ok(dev, "other", "/cache/get?key=kept"), {
            worker: "other",
            hit: true,
            value,
          });
          await ok(dev, "other", "/cache/set", { key: "brief", value: "soon gone", ttlSeconds: 1 });
          assert.equal((await ok(dev, "owner", "/cache/get?key=brief")).value, "soon gone");
          await delay(1_500);
          assert.equal((await ok(dev, "owner", "/cache/get?key=brief")).hit, false);
          assert.equal((await ok(dev, "owner", "/cache/get?key=never-set")).hit, false);
          await ok(dev, "owner", "/cache/set", { key: "dropped", value: 1 });
          await ok(dev, "other", "/cache/delete", { key: "dropped" });
          assert.equal((await ok(dev, "owner", "/cache/get?key=dropped")).hit, false);
        },
      ) &&
      await t.step("dense 1,536-d chunks go in as int8 rows and match themselves", async () => {
        // workerd compiles no WebAssembly from bytes: the object runs the same arithmetic in JS.
        assert.equal((await ok(dev, "owner", "/kernel")).kernel, "js");
        for (let from = 0; from < DENSE_CHUNKS.length; from += 100) {
          const chunks = DENSE_CHUNKS.slice(from, from + 100);
          await ok(dev, "other", "/upsert", { namespace: DENSE_NAMESPACE, chunks });
        }
        await denseSelfMatch(dev, "owner", 0);
        await denseSelfMatch(dev, "other", 599);
      }) && await t.step("deleteDocument removes every chunk of the document", async () => {
        const deleted = await ok(dev, "other", "/delete", { namespace: NAMESPACE, docId: "alpha" });
        assert.equal(deleted.deleted, 2);
        const hits = await query(dev, "owner", [1, 0, 0, 0], "hybrid");
        assert.deepEqual(hits.map((hit) => hit.id), ["beta#0"]);
        assert.equal((await ok(dev, "owner", `/count?namespace=${NAMESPACE}`)).count, 1);
      }) &&
      await t.step(
        "after wrangler dev restarts on the same storage, the data is there",
        async () => {
          await dev.stop();
          assert.equal(await dev.running(), false, "wrangler dev outlived stop()");
          dev = await start();
          const hits = await query(dev, "other", [0, 0, 1, 0]);
          assert.deepEqual(hits.map((hit) => hit.id), ["beta#0"]);
          assert.equal((await ok(dev, "owner", `/count?namespace=${NAMESPACE}`)).count, 1);
          assert.equal((await ok(dev, "other", "/cache/get?key=kept")).hit, true);
          // Loaded page by page from SQLite: every dense chunk is back, rows and all.
          const count = await ok(dev, "owner", `/count?namespace=${DENSE_NAMESPACE}`);
          assert.equal(count.count, DENSE_CHUNKS.length);
          await denseSelfMatch(dev, "other", 250);
          await denseSelfMatch(dev, "owner", 555);
        },
      );
  } finally {
    for (const dev of started) await dev.stop();
    if (!passed) {
      for (const [i, dev] of started.entries()) {
        console.error(`--- wrangler dev output (start ${i + 1}) ---\n${dev.output()}`);
      }
    }
    await Deno.remove(persistTo, { recursive: true }).catch(() => {});
    // Nothing this test started may outlive it.
    for (const dev of started) {
      assert.equal(
        await pgrep("-f", `workerd.*127\\.0\\.0\\.1:${dev.port}`),
        "",
        "a workerd from this test is still running",
      );
    }
  }
});
