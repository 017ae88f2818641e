/**
 * `search()` hands a hybrid query's embedding to the index while the
 * embeddings call is still in flight, and the embedded index scores BM25
 * meanwhile; what the embedding's failure, and the index's own, do then.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { InvalidRequestError, UpstreamError } from "../../shared/errors.ts";
import type { Embedder } from "../../shared/embeddings/port.ts";
import { LocalIndex } from "../../adapters/vector-index/local.ts";
import type { IndexedChunk, VectorIndex, VectorQuery } from "../../shared/vector/port.ts";
import { search, SPARSE_FALLBACK_REASON } from "../../functions/fuse/search.ts";

const NS = { namespace: "default" };

function chunk(docId: string, text: string, vector: number[]): IndexedChunk {
  return { id: `${docId}#0`, text, vector, metadata: { doc_id: docId, chunk_index: 0 } };
}

/** An embedder whose one call waits until `release` (or fails with `failure`). */
function heldEmbedder(vector: number[], failure?: Error) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const embedder: Embedder = {
    model: "held",
    async embed(texts, options) {
      await released;
      if (failure) throw failure;
      options?.onTokens?.(3);
      return texts.map(() => vector);
    },
  };
  return { embedder, release };
}

const cache = () => new ResilientCache(new MemoryCache(), { onError: () => {} });

async function filledIndex(): Promise<LocalIndex> {
  const index = new LocalIndex();
  await index.upsert([
    chunk("a", "cats purr on warm windowsills", [1, 0, 0]),
    chunk("b", "dogs bark at the mail carrier", [0, 1, 0]),
    chunk("c", "cats and dogs share a garden", [0.7, 0.7, 0]),
  ], NS);
  return index;
}

const hybrid = { query: "cats garden", top_k: 3, mode: "hybrid" as const, namespace: "default" };

Deno.test("search(): hybrid gives the index the embedding in flight, and ranks as with it given", async () => {
  const index = await filledIndex();
  const seen: VectorQuery[] = [];
  const spy: VectorIndex = Object.assign(Object.create(index), {
    query: (query: VectorQuery) => {
      seen.push(query);
      return index.query(query);
    },
  });
  const { embedder, release } = heldEmbedder([1, 0, 0]);
  const searching = search({ embedder, index: spy, cache: cache() }, hybrid);
  // The index has the query before the embedding came back.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(seen.length, 1);
  assert.ok(seen[0]!.vector instanceof Promise);
  release();
  const outcome = await searching;
  assert.equal(outcome.tokensIn, 3);
  assert.equal(outcome.degraded, undefined);
  const given = await index.query({
    text: hybrid.query,
    vector: [1, 0, 0],
    mode: "hybrid",
    topK: 3,
    namespace: "default",
  });
  assert.deepEqual(outcome.hits, given);
});

Deno.test("search(): a hybrid query whose embedding fails falls back to BM25 and says so", async () => {
  const index = await filledIndex();
  const { embedder, release } = heldEmbedder([1, 0, 0], new UpstreamError("embeddings down"));
  const searching = search({ embedder, index, cache: cache() }, hybrid);
  release();
  const outcome = await searching;
  assert.deepEqual(outcome.degraded, { reason: SPARSE_FALLBACK_REASON });
  const sparse = await index.query({
    text: hybrid.query,
    mode: "sparse",
    topK: 3,
    namespace: "default",
  });
  assert.deepEqual(outcome.hits, sparse);
});

Deno.test("search(): the index's own failure is not taken for the embedding's", async () => {
  const index = await filledIndex();
  const { embedder, release } = heldEmbedder([1, 0]); // two wide, the index holds three
  const searching = search({ embedder, index, cache: cache() }, hybrid);
  release();
  await assert.rejects(searching, InvalidRequestError);
});

Deno.test("a hybrid query with its vector pending leaves out chunks removed meanwhile", async () => {
  const index = await filledIndex();
  let resolve!: (vector: number[]) => void;
  const vector = new Promise<number[]>((done) => (resolve = done));
  const query: VectorQuery = {
    text: "cats",
    vector,
    mode: "hybrid",
    topK: 3,
    namespace: "default",
  };
  const searching = index.query(query);
  await new Promise((done) => setTimeout(done, 10));
  // BM25 has found a and c by now; c goes before the vector comes.
  assert.equal(await index.deleteDocument("c", NS), 1);
  resolve([1, 0, 0]);
  const hits = await searching;
  assert.deepEqual(hits.map((hit) => hit.id).sort(), ["a#0", "b#0"]);
});

Deno.test("a hybrid query whose pending vector rejects fails with that reason", async () => {
  const index = await filledIndex();
  const failure = new UpstreamError("embeddings down");
  const query: VectorQuery = {
    text: "cats",
    vector: Promise.reject(failure),
    mode: "hybrid",
    topK: 3,
    namespace: "default",
  };
  await assert.rejects(index.query(query), (error) => error === failure);
  // A namespace that does not exist still waits for the vector and fails the same way.
  await assert.rejects(
    index.query({ ...query, namespace: "nobody" }),
    (error) => error === failure,
  );
});
