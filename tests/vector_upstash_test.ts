import { analyze } from "../shared/text/analyze.ts";
import assert from "node:assert/strict";
import { Index } from "@upstash/vector";
import { InvalidRequestError, UpstreamError } from "../shared/errors.ts";
import type { IndexedChunk, SearchHit } from "../shared/vector/port.ts";
import { BM25_K1, sparseVector, termIndex } from "../shared/vector/sparse.ts";
import {
  toUpstashFilter,
  UPSTASH_MAX_UPSERT_BATCH,
  UpstashVectorIndex,
} from "../adapters/upstash/vector.ts";
import {
  parseUpstashFilter,
  startVectorRestServer,
  type VectorRestServer,
} from "./helpers/vector_rest_server.ts";

const NAMESPACE = "papers";

function chunk(
  docId: string,
  chunkIndex: number,
  text: string,
  vector: number[],
  extra: Record<string, unknown> = {},
): IndexedChunk {
  return {
    id: `${docId}#${chunkIndex}`,
    text,
    vector,
    metadata: { doc_id: docId, chunk_index: chunkIndex, ...extra },
  };
}

/** Four chunks whose dense and keyword neighbours differ on purpose. */
const CORPUS: IndexedChunk[] = [
  chunk(
    "bert",
    0,
    "BERT pretrains a bidirectional transformer with masked language modeling.",
    [1, 0, 0],
    { published: "2018-10-11", title: "BERT" },
  ),
  chunk(
    "bert",
    1,
    "Fine-tuned BERT sets a new state of the art on the GLUE benchmark.",
    [0.9, 0.1, 0],
    { published: "2018-10-11", title: "BERT" },
  ),
  chunk(
    "gpt",
    0,
    "GPT is a decoder-only transformer trained to predict the next token.",
    [0, 1, 0],
    { published: "2018-06-11", title: "GPT" },
  ),
  chunk(
    "resnet",
    0,
    "ResNet adds residual connections so very deep convolutional networks train.",
    [0, 0, 1],
    { published: "2015-12-10", title: "ResNet" },
  ),
];

function adapterFor(server: VectorRestServer): UpstashVectorIndex {
  return new UpstashVectorIndex({
    url: server.url,
    token: server.token,
    retries: 0,
  });
}

function ids(hits: SearchHit[]): string[] {
  return hits.map((hit) => hit.id);
}

async function seeded(): Promise<
  { server: VectorRestServer; index: UpstashVectorIndex }
> {
  const server = startVectorRestServer();
  const index = adapterFor(server);
  await index.upsert(CORPUS, { namespace: NAMESPACE });
  return { server, index };
}

// --- sparse.ts --------------------------------------------------------------

Deno.test("termIndex() is FNV-1a with the top bit cleared, stable across calls", () => {
  // Published FNV-1a 32-bit test vectors, top bit cleared:
  // "a" → 0xe40c292c, "foobar" → 0xbf9cf968.
  assert.equal(termIndex("a"), 0x640c292c);
  assert.equal(termIndex("foobar"), 0x3f9cf968);
  assert.equal(termIndex("bert"), termIndex("bert"));
  for (const term of ["transformer", "résumé", "2019", "x"]) {
    const index = termIndex(term);
    assert.ok(Number.isInteger(index) && index >= 0 && index < 2 ** 31);
  }
});

Deno.test("sparseVector() drops stop words and sorts indices ascending", () => {
  assert.deepEqual(sparseVector("The and of it", { kind: "document" }), {
    indices: [],
    values: [],
  });
  const vector = sparseVector("the transformer beats the baseline model", {
    kind: "query",
  });
  const expected = [...new Set(analyze("transformer beats baseline model"))]
    .map(termIndex)
    .sort((a, b) => a - b);
  assert.deepEqual(vector.indices, expected);
  assert.deepEqual(vector.values, [1, 1, 1, 1]);
});

Deno.test("sparseVector() saturates document term frequency BM25-style, queries weigh 1", () => {
  const document = sparseVector("BERT bert Bert", { kind: "document" });
  assert.deepEqual(document.indices, [termIndex("bert")]);
  assert.equal(document.values[0], (3 * (BM25_K1 + 1)) / (3 + BM25_K1));
  const query = sparseVector("BERT bert Bert", { kind: "query" });
  assert.deepEqual(query.values, [1]);
});

Deno.test("sparseVector() merges terms whose hashes collide into one entry", () => {
  // Found by search: two distinct terms with the same 31-bit FNV-1a.
  assert.equal(termIndex("x3rnw"), termIndex("xkpba"));
  assert.deepEqual(sparseVector("x3rnw xkpba", { kind: "query" }), {
    indices: [termIndex("x3rnw")],
    values: [2],
  });
  const document = sparseVector("x3rnw xkpba", { kind: "document" });
  assert.equal(document.indices.length, 1);
  assert.equal(document.values[0], 2 * ((1 * (BM25_K1 + 1)) / (1 + BM25_K1)));
});

// --- toUpstashFilter ----------------------------------------------------------

Deno.test("toUpstashFilter() joins conditions with AND and quotes strings", () => {
  assert.equal(toUpstashFilter(undefined), undefined);
  assert.equal(toUpstashFilter({}), undefined);
  assert.equal(
    toUpstashFilter({ doc_id: "bert", published: { gte: "2019-01-01" } }),
    "doc_id = 'bert' AND published >= '2019-01-01'",
  );
  assert.equal(
    toUpstashFilter({
      doc_id: { in: ["bert", "gpt"] },
      chunk_index: { gt: 0, lte: 10 },
      draft: false,
      title: { ne: "GPT" },
    }),
    "doc_id IN ('bert', 'gpt') AND chunk_index > 0 AND chunk_index <= 10 AND draft = false AND title != 'GPT'",
  );
  assert.equal(toUpstashFilter({ score: 1e-7 }), "score = 0.0000001");
  assert.equal(toUpstashFilter({ score: -2.5e21 }), "score = -2500000000000000000000");
});

Deno.test("toUpstashFilter() escapes quotes and backslashes inside strings", () => {
  assert.equal(
    toUpstashFilter({ title: "O'Reilly \\ 'Co'" }),
    String.raw`title = 'O\'Reilly \\ \'Co\''`,
  );
  assert.equal(
    toUpstashFilter({ title: "' OR doc_id != '" }),
    String.raw`title = '\' OR doc_id != \''`,
  );
});

Deno.test("toUpstashFilter() rejects field names that are not identifiers, naming the field", () => {
  for (const field of ["doc id", "a.b", "1st", "x=1 OR y", "", "title'"]) {
    assert.throws(
      () => toUpstashFilter({ [field]: "x" }),
      (error: unknown) =>
        error instanceof InvalidRequestError &&
        error.message.includes(JSON.stringify(field)),
      `field ${JSON.stringify(field)}`,
    );
  }
});

Deno.test("toUpstashFilter() rejects empty IN lists, unknown operators and non-finite numbers", () => {
  assert.throws(
    () => toUpstashFilter({ doc_id: { in: [] } }),
    InvalidRequestError,
  );
  assert.throws(
    () => toUpstashFilter({ doc_id: { like: "b%" } as never }),
    InvalidRequestError,
  );
  assert.throws(() => toUpstashFilter({ n: Number.NaN }), InvalidRequestError);
  assert.throws(() => toUpstashFilter({ n: {} }), InvalidRequestError);
});

Deno.test("the local server's filter parser reads back what toUpstashFilter writes", () => {
  const matches = parseUpstashFilter(
    toUpstashFilter({
      title: "O'Reilly \\ Co",
      year: { gte: 2018, lt: 2020 },
      tag: { in: ["a", "b"] },
    }) ?? "",
  );
  assert.equal(
    matches({ title: "O'Reilly \\ Co", year: 2019, tag: "b" }),
    true,
  );
  assert.equal(matches({ title: "O'Reilly \\ Co", year: 2020, tag: "b" }), false);
  assert.equal(matches({ title: "O'Reilly", year: 2019, tag: "b" }), false);
  assert.equal(matches({ year: 2019, tag: "b" }), false);
});

// --- UpstashVectorIndex against the local server ----------------------------

Deno.test("upsert() sends 2500 chunks as /upsert batches of at most 1000", async () => {
  await using server = startVectorRestServer();
  const index = adapterFor(server);
  const chunks = Array.from(
    { length: 2500 },
    (_, i) => chunk(`doc${i % 7}`, i, `chunk number ${i} about topic ${i % 13}`, [1, i, 0]),
  );
  await index.upsert(chunks, { namespace: NAMESPACE });

  const upserts = server.requests.filter((request) => request.path.startsWith("/upsert"));
  assert.deepEqual(upserts.map((request) => request.path), [
    `/upsert/${NAMESPACE}`,
    `/upsert/${NAMESPACE}`,
    `/upsert/${NAMESPACE}`,
  ]);
  const sizes = upserts.map((request) => Array.isArray(request.body) ? request.body.length : -1);
  assert.deepEqual(sizes, [1000, 1000, 500]);
  assert.ok(sizes.every((size) => size <= UPSTASH_MAX_UPSERT_BATCH));

  const first = (upserts[0]?.body as unknown[])[0];
  assert.deepEqual(first, {
    id: "doc0#0",
    vector: [1, 0, 0],
    sparseVector: sparseVector("chunk number 0 about topic 0", {
      kind: "document",
    }),
    metadata: { doc_id: "doc0", chunk_index: 0 },
    data: "chunk number 0 about topic 0",
  });
  assert.equal(await index.count({ namespace: NAMESPACE }), 2500);
});

Deno.test("query() in dense mode sends only the dense vector and ranks by cosine", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  const hits = await index.query({
    text: "masked language modeling",
    vector: [0.1, 0, 1],
    mode: "dense",
    topK: 2,
    namespace: NAMESPACE,
  });
  assert.deepEqual(ids(hits), ["resnet#0", "bert#0"]);
  const top = hits[0];
  assert.ok(top);
  assert.equal(top.doc_id, "resnet");
  assert.equal(top.text, CORPUS[3]?.text);
  assert.equal(top.metadata.title, "ResNet");
  assert.ok(top.score > 0.99 && top.score <= 1);

  const body = server.requests.at(-1)?.body;
  assert.equal(server.requests.at(-1)?.path, `/query/${NAMESPACE}`);
  assert.deepEqual(body, {
    topK: 2,
    includeMetadata: true,
    includeData: true,
    vector: [0.1, 0, 1],
  });
});

Deno.test("query() in sparse mode matches keywords with IDF weighting", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  const hits = await index.query({
    text: "Which paper used masked language modeling?",
    mode: "sparse",
    topK: 3,
    namespace: NAMESPACE,
  });
  assert.equal(hits[0]?.id, "bert#0");
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  assert.equal(body.weightingStrategy, "IDF");
  assert.equal(body.vector, undefined);
  assert.deepEqual(
    body.sparseVector,
    sparseVector("Which paper used masked language modeling?", {
      kind: "query",
    }),
  );
});

Deno.test("query() in hybrid mode fuses dense and sparse ranks with RRF", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  const query = {
    text: "GLUE transformer",
    vector: [0.6, 0.8, 0],
    topK: 3,
    namespace: NAMESPACE,
  };
  const dense = await index.query({ ...query, mode: "dense" });
  const sparse = await index.query({ ...query, mode: "sparse" });
  const hybrid = await index.query({ ...query, mode: "hybrid" });
  assert.equal(dense[0]?.id, "gpt#0");
  assert.equal(sparse[0]?.id, "bert#1");
  // bert#1 is 2nd by meaning and 1st by keywords: fused, it wins.
  assert.equal(hybrid[0]?.id, "bert#1");
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  assert.equal(body.fusionAlgorithm, "RRF");
  assert.equal(body.weightingStrategy, "IDF");
  assert.deepEqual(body.vector, [0.6, 0.8, 0]);
  assert.ok(body.sparseVector);
});

Deno.test("query() needs a vector for dense and hybrid, and skips the call when sparse has no terms", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  const before = server.requests.length;
  for (const mode of ["dense", "hybrid"] as const) {
    await assert.rejects(
      index.query({ text: "bert", mode, topK: 3, namespace: NAMESPACE }),
      InvalidRequestError,
    );
  }
  assert.deepEqual(
    await index.query({
      text: "the of and",
      mode: "sparse",
      topK: 3,
      namespace: NAMESPACE,
    }),
    [],
  );
  assert.equal(server.requests.length, before);
});

Deno.test("namespaces are isolated for query, count and delete", async () => {
  await using server = startVectorRestServer();
  const index = adapterFor(server);
  await index.upsert(CORPUS.slice(0, 2), { namespace: "alpha" });
  await index.upsert(CORPUS.slice(2), { namespace: "beta" });

  const alpha = await index.query({
    text: "transformer",
    vector: [0, 0, 1],
    mode: "hybrid",
    topK: 10,
    namespace: "alpha",
  });
  assert.deepEqual(ids(alpha).sort(), ["bert#0", "bert#1"]);
  assert.equal(await index.count({ namespace: "alpha" }), 2);
  assert.equal(await index.count({ namespace: "beta" }), 2);
  assert.equal(await index.count({ namespace: "gamma" }), 0);
  assert.equal(await index.deleteDocument("bert", { namespace: "beta" }), 0);
  assert.equal(await index.count({ namespace: "alpha" }), 2);
});

Deno.test("query() applies a metadata filter", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  const onlyBert = await index.query({
    text: "transformer",
    vector: [0, 1, 0],
    mode: "dense",
    topK: 10,
    filter: { doc_id: "bert" },
    namespace: NAMESPACE,
  });
  assert.deepEqual(ids(onlyBert), ["bert#1", "bert#0"]);

  const recentNotGpt = await index.query({
    text: "transformer",
    vector: [0, 1, 0],
    mode: "hybrid",
    topK: 10,
    filter: { published: { gte: "2018-01-01" }, doc_id: { ne: "gpt" } },
    namespace: NAMESPACE,
  });
  assert.deepEqual(ids(recentNotGpt).sort(), ["bert#0", "bert#1"]);
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  assert.equal(body.filter, "published >= '2018-01-01' AND doc_id != 'gpt'");
});

Deno.test("query() filters on values holding quotes", async () => {
  await using server = startVectorRestServer();
  const index = adapterFor(server);
  await index.upsert([
    chunk("oreilly", 0, "A book", [1, 0], { title: "O'Reilly's \"guide\"" }),
    chunk("other", 0, "A book", [1, 0], { title: "O" }),
  ], { namespace: NAMESPACE });
  const hits = await index.query({
    text: "book",
    vector: [1, 0],
    mode: "dense",
    topK: 5,
    filter: { title: "O'Reilly's \"guide\"" },
    namespace: NAMESPACE,
  });
  assert.deepEqual(ids(hits), ["oreilly#0"]);
});

Deno.test("deleteDocument() removes every chunk of one document and reports how many", async () => {
  await using server = startVectorRestServer();
  const index = adapterFor(server);
  await index.upsert([
    chunk("a", 0, "first", [1, 0]),
    chunk("a", 1, "second", [1, 0]),
    chunk("a", 2, "third", [1, 0]),
    // Ids `a#v2#0` and `ab#0` start like `a`'s but belong to other documents.
    chunk("a#v2", 0, "other", [0, 1]),
    chunk("ab", 0, "other", [0, 1]),
  ], { namespace: NAMESPACE });

  assert.equal(await index.deleteDocument("a", { namespace: NAMESPACE }), 3);
  assert.equal(await index.count({ namespace: NAMESPACE }), 2);
  const left = await index.query({
    text: "other",
    vector: [0, 1],
    mode: "dense",
    topK: 10,
    namespace: NAMESPACE,
  });
  assert.deepEqual(ids(left).sort(), ["a#v2#0", "ab#0"]);
  assert.equal(await index.deleteDocument("a", { namespace: NAMESPACE }), 0);
  assert.equal(
    await index.deleteDocument("a#v2", { namespace: NAMESPACE }),
    1,
  );
  const rangeRequest = server.requests.find((request) => request.path.startsWith("/range"));
  assert.deepEqual(rangeRequest?.body, {
    cursor: "0",
    limit: 1000,
    prefix: "a#",
  });
});

Deno.test("an error reply from the service surfaces as UpstreamError", async () => {
  const { server, index } = await seeded();
  await using _server = server;
  server.failNext({ status: 500, error: "boom" });
  const failure = await index.count({ namespace: NAMESPACE }).then(
    () => assert.fail("count() should reject"),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof UpstreamError);
  assert.equal(failure.status, 502);
  assert.equal(failure.type, "upstream_error");
  assert.equal(failure.isRetryable, false);
  assert.match(String(failure.cause), /boom/);
  // The failure was one request: the next call works again.
  assert.equal(await index.count({ namespace: NAMESPACE }), CORPUS.length);
});

Deno.test("a wrong token and an unreachable service surface as UpstreamError", async () => {
  await using server = startVectorRestServer();
  const wrongToken = new UpstashVectorIndex({
    url: server.url,
    token: "wrong",
    retries: 0,
  });
  await assert.rejects(
    wrongToken.count({ namespace: NAMESPACE }),
    UpstreamError,
  );
  const url = server.url;
  await server.close();
  const unreachable = new UpstashVectorIndex({ url, token: "t", retries: 0 });
  const failure = await unreachable.count({ namespace: NAMESPACE }).then(
    () => assert.fail("count() should reject"),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof UpstreamError);
  assert.equal(failure.isRetryable, true);
});

Deno.test("a call past its deadline surfaces as a retryable UpstreamError", async () => {
  await using server = startVectorRestServer();
  const index = new UpstashVectorIndex({
    url: server.url,
    token: server.token,
    timeoutMs: 50,
    retries: 0,
  });
  server.failNext({ delayMs: 300 });
  const failure = await index.count({ namespace: NAMESPACE }).then(
    () => assert.fail("count() should reject"),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof UpstreamError);
  assert.equal(failure.isRetryable, true);
  assert.equal((failure.cause as Error).name, "TimeoutError");
});

Deno.test("the adapter rejects namespaces that would change the request path", async () => {
  await using server = startVectorRestServer();
  const index = adapterFor(server);
  for (const namespace of ["a/b", "a?all", "a#b", "a b", "50%"]) {
    await assert.rejects(index.count({ namespace }), InvalidRequestError);
  }
  assert.equal(server.requests.length, 0);
});

Deno.test("an injected SDK Index is used as is", async () => {
  await using server = startVectorRestServer();
  const sdk = new Index({ url: server.url, token: server.token });
  const index = new UpstashVectorIndex({ index: sdk });
  await index.upsert(CORPUS, { namespace: NAMESPACE });
  const stored = await sdk.fetch(["bert#1"], {
    namespace: NAMESPACE,
    includeMetadata: true,
    includeData: true,
  });
  assert.deepEqual(stored, [{
    id: "bert#1",
    metadata: CORPUS[1]?.metadata,
    data: CORPUS[1]?.text,
  }]);
  const info = await sdk.info();
  assert.equal(info.namespaces[NAMESPACE]?.vectorCount, CORPUS.length);
  assert.equal(server.requests.at(-1)?.path, "/info");
});
