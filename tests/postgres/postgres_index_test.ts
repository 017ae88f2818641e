/**
 * The Postgres index against real Postgres servers (PGlite with pgvector
 * behind its wire server, and a native Postgres as a role that is not a
 * superuser; one of each per file, see servers.ts): it ranks as the embedded
 * index does on every mode, keeps tenants and namespaces apart, lists, reads
 * back, replaces and deletes in transactions, and its chunks are rows anyone
 * can query.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { LocalIndex } from "../../adapters/vector-index/local.ts";
import type { IndexedChunk, VectorIndex, VectorQuery } from "../../shared/vector/port.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { SCHEMA_VERSION } from "../../adapters/postgres/schema.ts";
import { once, type PostgresServer, postgresServers } from "./servers.ts";

const TEXTS = [
  "BERT pre-trains deep bidirectional transformers on masked language modelling",
  "GPT-3 is an autoregressive language model with 175 billion parameters",
  "Retrieval-augmented generation combines a retriever with a generator",
  "Dense passage retrieval encodes questions and passages with two BERT encoders",
  "BM25 ranks documents by term frequency and inverse document frequency",
  "Reciprocal rank fusion merges several rankings by summing reciprocal ranks",
  "HNSW graphs find approximate nearest neighbours in logarithmic time",
  "The transformer architecture relies entirely on attention mechanisms",
  "Sentence embeddings map sentences to dense vectors for semantic search",
  "Hybrid search fuses keyword and vector retrieval for better recall",
  "Language models can hallucinate facts that are not in their training data",
  "Chunking splits long documents into passages before they are embedded",
];

/** A small deterministic vector per text: words hashed into 8 dimensions. */
function vectorOf(text: string): number[] {
  const vector = new Array(8).fill(0);
  for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % 8] += 1;
  }
  return vector;
}

function chunksOf(docs: string[][], extra: Record<string, unknown> = {}): IndexedChunk[] {
  return docs.flatMap(([docId, ...texts]) =>
    texts.map((text, i) => ({
      id: `${docId}#${i}`,
      text,
      vector: vectorOf(text),
      metadata: { doc_id: docId!, chunk_index: i, title: docId!, year: 2015 + i, ...extra },
    }))
  );
}

const CORPUS = chunksOf(TEXTS.map((text, i) => [`doc${String(i).padStart(2, "0")}`, text, text]));

async function both(
  index: VectorIndex,
  namespace: string,
  query: Omit<VectorQuery, "namespace">,
  local: VectorIndex,
) {
  const [ours, theirs] = await Promise.all([
    index.query({ ...query, namespace }),
    local.query({ ...query, namespace }),
  ]);
  return { ours, theirs };
}

for (const server of postgresServers("postgres_index_test")) {
  const setup = once(async () => {
    const db = await server.start();
    return { db, index: new PostgresIndex({ url: db.url }) };
  });
  const test = (
    name: string,
    fn: (started: { db: PostgresServer; index: PostgresIndex }) => Promise<void>,
  ) =>
    Deno.test({
      name: `${name} (${server.name})`,
      ignore: server.ignore,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => await fn(await setup()),
    });

  test("the Postgres index ranks as the embedded index does on every mode, filters included", async ({ index }) => {
    const local = new LocalIndex();
    await index.upsert(CORPUS, { namespace: "same:default" });
    await local.upsert(CORPUS, { namespace: "same:default" });
    const questions = [
      "How does BERT pre-train its transformers?",
      "rank fusion of keyword and vector retrieval",
      "language model parameters",
      "zzz unknownword",
      "the and of", // stop words only: no sparse side, hybrid falls back on dense's ranks
    ];
    for (const text of questions) {
      for (const mode of ["dense", "sparse", "hybrid"] as const) {
        for (
          const filter of [
            undefined,
            { year: { gte: 2016 } },
            { doc_id: { in: ["doc01", "doc04"] } },
            { doc_id: { in: [] }, year: {} },
            { title: { ne: "doc03" }, missing: { ne: 1 } },
          ]
        ) {
          const query = {
            text,
            vector: vectorOf(text),
            mode,
            topK: 5,
            ...(filter ? { filter } : {}),
          };
          const { ours, theirs } = await both(index, "same:default", query, local);
          const label = `${mode} ${JSON.stringify(filter)} "${text}"`;
          assert.deepEqual(ours.map((hit) => hit.id), theirs.map((hit) => hit.id), label);
          ours.forEach((hit, i) => {
            assert.ok(
              Math.abs(hit.score - theirs[i]!.score) < 1e-6,
              `${label}: ${hit.score} vs ${theirs[i]!.score}`,
            );
          });
        }
      }
    }
  });

  test("tenants and namespaces are columns: one finds nothing of another's", async ({ index }) => {
    await index.upsert(chunksOf([["ledger", "Acme's lighthouse ledger and its figures"]]), {
      namespace: "acme:default",
    });
    const search = (namespace: string) =>
      index.query({
        text: "lighthouse ledger",
        vector: vectorOf("lighthouse ledger"),
        mode: "hybrid",
        topK: 5,
        namespace,
      });
    assert.deepEqual((await search("acme:default")).map((hit) => hit.doc_id), ["ledger"]);
    assert.deepEqual(await search("globex:default"), []);
    assert.deepEqual(await search("acme:other"), []);
    assert.deepEqual(await search("default"), []);
    assert.equal(await index.deleteDocument("ledger", { namespace: "globex:default" }), 0);
    assert.equal(await index.count({ namespace: "acme:default" }), 1);
  });

  test("documents are listed in pages, read back in order, replaced and deleted whole", async ({ index }) => {
    const namespace = "docs:default";
    await index.upsert(chunksOf([["a", "one", "two", "three"], ["b", "four"], ["c", "five"]]), {
      namespace,
    });
    const first = await index.listDocuments({ namespace, limit: 2 });
    assert.deepEqual(first.documents.map((doc) => [doc.id, doc.chunks]), [["a", 3], ["b", 1]]);
    const second = await index.listDocuments({ namespace, limit: 2, cursor: first.cursor });
    assert.deepEqual(second.documents.map((doc) => doc.id), ["c"]);
    assert.equal(second.cursor, undefined);
    await assert.rejects(index.listDocuments({ namespace, limit: 2, cursor: "nope!" }), /cursor/);
    assert.deepEqual((await index.getDocument("a", { namespace })).map((chunk) => chunk.text), [
      "one",
      "two",
      "three",
    ]);

    await index.replaceDocuments(["a"], chunksOf([["a", "uno"]]), { namespace });
    assert.deepEqual((await index.getDocument("a", { namespace })).map((chunk) => chunk.text), [
      "uno",
    ]);
    assert.equal(await index.count({ namespace }), 3);
    assert.equal(await index.deleteDocument("a", { namespace }), 1);
    assert.deepEqual(await index.getDocument("a", { namespace }), []);
    assert.equal(await index.count({ namespace }), 2);
    // The BM25 statistics moved with the rows: "uno" is in no chunk any more.
    assert.deepEqual(await index.query({ text: "uno", mode: "sparse", topK: 5, namespace }), []);
  });

  test("the chunks are rows in Postgres, with a vector and a tsvector each", async ({ db, index }) => {
    await index.upsert(chunksOf([["rows", "Rows in Postgres are plain to query"]]), {
      namespace: "rows:default",
    });
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT id, doc_id, vector_dims(embedding) AS dims, terms::text AS terms
        FROM sift_chunks WHERE tenant = 'rows' AND namespace = 'default'`;
      assert.deepEqual(rows.map((row) => [row.id, row.doc_id, row.dims]), [["rows#0", "rows", 8]]);
      assert.match(String(rows[0]!.terms), /'postgr'/);
      const indexes = await sql`SELECT indexname FROM pg_indexes WHERE tablename = 'sift_chunks'`;
      const names = indexes.map((row) => row.indexname);
      assert.ok(names.includes("sift_chunks_terms"), names.join());
      assert.ok(names.includes("sift_chunks_hnsw_8"), names.join());
      const [version] = await sql`SELECT version FROM sift_schema`;
      assert.equal(version!.version, SCHEMA_VERSION);
    } finally {
      await sql.end();
    }
  });

  test("a query vector of another width is the caller's mistake", async ({ index }) => {
    await index.upsert(chunksOf([["w", "width"]]), { namespace: "width:default" });
    await assert.rejects(
      index.query({
        text: "width",
        vector: [1, 2, 3],
        mode: "dense",
        topK: 3,
        namespace: "width:default",
      }),
      /8-dimensional/,
    );
  });

  test("zz: closes the index and the server", async ({ db, index }) => {
    await index.close();
    await db[Symbol.asyncDispose]();
  });
}
