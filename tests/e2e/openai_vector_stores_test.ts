/**
 * OpenAI's Files and Vector Stores API through openai-node, unmodified but
 * for the base URL, against sift on loopback with the offline model: files
 * uploaded, listed, read and deleted; a store created, a PDF added with
 * `uploadAndPoll`, a note with attributes, searched with attribute filters
 * (`eq`, and `or` over `and`), a sift ranker; an unknown store a 404 in
 * OpenAI's shape; another tenant's store not there at all.
 */
import assert from "node:assert/strict";
import OpenAI, { toFile } from "openai";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import { createSiftApp } from "../../app.ts";
import { fixture } from "../helpers/documents.ts";

const KEYS = { acme: "sk-acme", globex: "sk-globex" };

function serveSift() {
  const app = createSiftApp();
  const env = { DEMO_CORPUS: "false", API_KEYS: `${KEYS.acme}:acme,${KEYS.globex}:globex` };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, env),
  );
  const baseURL = `http://127.0.0.1:${server.addr.port}/v1`;
  const client = (key: string) => new OpenAI({ baseURL, apiKey: key, maxRetries: 0 });
  return { baseURL, client, [Symbol.asyncDispose]: () => server.shutdown() };
}

const NOTE = "Reciprocal rank fusion scores a document by the sum of 1 / (k + rank) over the " +
  "rankings it appears in, with k = 60. It merges the rankings of several retrievers.";

function assertNotFound(message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof OpenAI.NotFoundError, String(error));
    assert.equal(error.type, "invalid_request_error");
    assert.match(error.message, message);
    return true;
  };
}

Deno.test("openai-node's files: create, list, retrieve, content, delete; a non-document refused", async () => {
  await using sift = serveSift();
  const client = sift.client(KEYS.acme);
  const text = `# Notes\n\n${NOTE} `.repeat(40);
  const file = await client.files.create({
    file: await toFile(new TextEncoder().encode(text), "notes.md"),
    purpose: "assistants",
  });
  assert.match(file.id, /^file-[0-9a-f]{24}$/);
  assert.equal(file.filename, "notes.md");
  assert.equal(file.bytes, new TextEncoder().encode(text).byteLength);
  assert.equal(file.purpose, "assistants");
  const other = await client.files.create({
    file: await toFile(new TextEncoder().encode(NOTE), "note.txt"),
    purpose: "user_data",
  });
  const listed = await client.files.list();
  assert.deepEqual(listed.data.map((entry) => entry.id), [other.id, file.id], "newest first");
  const first = await client.files.list({ limit: 1, order: "asc" });
  assert.deepEqual(first.data.map((entry) => entry.id), [file.id]);
  assert.ok(first.hasNextPage());
  assert.deepEqual((await first.getNextPage()).data.map((entry) => entry.id), [other.id]);
  assert.deepEqual(
    (await client.files.list({ purpose: "user_data" })).data.map((entry) => entry.id),
    [other.id],
  );
  assert.deepEqual(await client.files.retrieve(file.id), file);

  // The text sift extracted, its chunks' overlaps read once: every word of it, in order.
  const content = await (await client.files.content(file.id)).text();
  const words = (value: string) => value.match(/[\p{L}\p{N}]+/gu) ?? [];
  assert.deepEqual(words(content), words(text));

  assert.deepEqual(await client.files.delete(file.id), {
    id: file.id,
    object: "file",
    deleted: true,
  });
  await assert.rejects(() => client.files.retrieve(file.id), assertNotFound(/No such file/));
  const photo = await toFile(await fixture("photo.txt"), "photo.txt");
  await assert.rejects(
    () => client.files.create({ file: photo, purpose: "assistants" }),
    (error) => {
      assert.ok(error instanceof OpenAI.APIError && error.status === 415, String(error));
      assert.match(error.message, /photo\.txt: is a PNG image/);
      return true;
    },
  );
  // A form part openai-node never sends is named, not dropped.
  const form = new FormData();
  form.append("purpose", "assistants");
  form.append("expires_after", "3600");
  form.append("file", new Blob(["hi"]), "a.txt");
  await assert.rejects(
    () => client.post("/files", { body: form }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === "expires_after",
  );
  const small = await toFile(new Uint8Array([104, 105]), "a.txt");
  await assert.rejects(
    () => client.files.create({ file: small, purpose: "batch" }),
    (error) => error instanceof OpenAI.BadRequestError && error.param === "purpose",
  );
});

Deno.test("openai-node's vector stores: uploadAndPoll a PDF, attributes, filtered search, a 404 in OpenAI's shape", async () => {
  await using sift = serveSift();
  const client = sift.client(KEYS.acme);
  const store = await client.vectorStores.create({ name: "papers", metadata: { team: "search" } });
  assert.match(store.id, /^vs_[0-9a-f]{24}$/);
  assert.equal(store.status, "completed");
  assert.deepEqual(store.metadata, { team: "search" });

  const pdf = await client.vectorStores.files.uploadAndPoll(
    store.id,
    await toFile(await fixture("paper.pdf"), "paper.pdf"),
    { pollIntervalMs: 50 },
  );
  assert.equal(pdf.status, "completed");
  assert.ok(pdf.usage_bytes > 0);
  const note = await client.files.create({
    file: await toFile(new TextEncoder().encode(NOTE), "rrf.txt"),
    purpose: "assistants",
  });
  const { data: short, response: polled } = await client.vectorStores.files.create(store.id, {
    file_id: (await client.files.create({
      file: await toFile(new TextEncoder().encode("A short note."), "short.txt"),
      purpose: "assistants",
    })).id,
  }).withResponse();
  assert.equal(polled.headers.get("openai-poll-after-ms"), "500");
  await client.vectorStores.files.delete(short.id, { vector_store_id: store.id });
  const added = await client.vectorStores.files.createAndPoll(store.id, {
    file_id: note.id,
    attributes: { topic: "fusion", year: 2009 },
    chunking_strategy: {
      type: "static",
      static: { max_chunk_size_tokens: 200, chunk_overlap_tokens: 20 },
    },
  });
  assert.equal(added.status, "completed");
  assert.deepEqual(added.attributes, { topic: "fusion", year: 2009 });
  assert.deepEqual(added.chunking_strategy, {
    type: "static",
    static: { max_chunk_size_tokens: 200, chunk_overlap_tokens: 20 },
  });
  const counted = await client.vectorStores.retrieve(store.id);
  assert.deepEqual(counted.file_counts, {
    in_progress: 0,
    completed: 2,
    failed: 0,
    cancelled: 0,
    total: 2,
  });
  assert.equal(counted.usage_bytes, pdf.usage_bytes + added.usage_bytes);

  const search = (body: Omit<OpenAI.VectorStores.VectorStoreSearchParams, "query">) =>
    client.vectorStores.search(store.id, { query: "reciprocal rank fusion k", ...body });
  const all = await search({ max_num_results: 5 });
  assert.equal(all.data[0]?.file_id, note.id);
  assert.equal(all.data[0]?.filename, "rrf.txt");
  assert.deepEqual(all.data[0]?.attributes, { topic: "fusion", year: 2009 });
  assert.match(all.data[0]!.content[0]!.text, /k = 60/);
  assert.ok(all.data.some((result) => result.filename === "paper.pdf"));
  assert.ok(all.data.every((result) => result.score >= 0 && result.score <= 1));

  const fused = await search({ filters: { type: "eq", key: "topic", value: "fusion" } });
  assert.deepEqual(fused.data.map((result) => result.file_id), [note.id]);
  const none = await search({ filters: { type: "gt", key: "year", value: 2009 } });
  assert.deepEqual(none.data, []);
  const either = await search({
    filters: {
      type: "or",
      filters: [
        { type: "eq", key: "topic", value: "tides" },
        {
          type: "and",
          filters: [
            { type: "gte", key: "year", value: 2000 },
            { type: "lt", key: "year", value: 2010 },
          ],
        },
      ],
    },
  });
  assert.deepEqual(either.data.map((result) => result.file_id), [note.id]);
  const ranked = await search({
    max_num_results: 2,
    ranking_options: { ranker: "sift-relevance" as "auto", score_threshold: 0.1 },
  });
  assert.ok(ranked.data.length >= 1 && ranked.data.length <= 2);
  assert.ok(ranked.data.every((result) => result.score >= 0.1 && result.score <= 1));

  // rewrite_query: RAG-Fusion's variations searched beside the query, all reported.
  const rewritten = await search({ rewrite_query: true, max_num_results: 3 });
  // The SDK's page keeps the body it was given; search_query is in it, as OpenAI's is.
  const { search_query: searched } = (rewritten as unknown as { body: { search_query: string[] } })
    .body;
  assert.ok(searched.length > 1, JSON.stringify(searched));
  assert.equal(searched[0], "reciprocal rank fusion k");
  assert.equal(rewritten.data[0]?.file_id, note.id);
  assert.ok(rewritten.data.every((result) => result.score >= 0 && result.score <= 1));

  await assert.rejects(
    () => client.vectorStores.search("vs_missing", { query: "x" }),
    assertNotFound(/No such vector store: vs_missing/),
  );
  await assert.rejects(
    () => search({ filters: { type: "nope", key: "a", value: 1 } as never }),
    (error) => error instanceof OpenAI.BadRequestError && /filters/.test(error.message),
  );

  const files = await client.vectorStores.files.list(store.id, { filter: "completed" });
  assert.deepEqual(files.data.map((file) => file.id), [note.id, pdf.id]);
  await client.vectorStores.files.update(note.id, {
    vector_store_id: store.id,
    attributes: { topic: "rank fusion" },
  });
  const updated = await search({ filters: { type: "eq", key: "topic", value: "rank fusion" } });
  assert.deepEqual(updated.data.map((result) => result.file_id), [note.id]);

  // Another tenant sees neither the store nor the file.
  const globex = sift.client(KEYS.globex);
  await assert.rejects(() => globex.vectorStores.retrieve(store.id), assertNotFound(/vs_/));
  await assert.rejects(() => globex.files.retrieve(note.id), assertNotFound(/No such file/));
  assert.deepEqual((await globex.vectorStores.list()).data, []);

  const removed = await client.vectorStores.files.delete(note.id, { vector_store_id: store.id });
  assert.equal(removed.deleted, true);
  assert.deepEqual((await search({})).data.filter((result) => result.file_id === note.id), []);
  assert.equal((await client.files.retrieve(note.id)).id, note.id, "the file itself stays");
  assert.equal((await client.vectorStores.delete(store.id)).deleted, true);
  await assert.rejects(() => client.vectorStores.retrieve(store.id), assertNotFound(/vs_/));
});

Deno.test("openai-node's responses.create with file_search answers from the store, with file_citation annotations, plain and streamed", async () => {
  await using sift = serveSift();
  const client = sift.client(KEYS.acme);
  const store = await client.vectorStores.create({ name: "notes" });
  const note = await client.vectorStores.files.uploadAndPoll(
    store.id,
    await toFile(new TextEncoder().encode(NOTE), "rrf.txt"),
  );
  await client.vectorStores.files.uploadAndPoll(
    store.id,
    await toFile(await fixture("paper.pdf"), "paper.pdf"),
  );
  const ask = {
    model: "sift-none",
    input: "What does reciprocal rank fusion sum over the rankings?",
    tools: [{ type: "file_search" as const, vector_store_ids: [store.id], max_num_results: 4 }],
  };

  const plain = await client.responses.create({ ...ask, include: ["file_search_call.results"] });
  const [call, message] = plain.output;
  assert.equal(call?.type, "file_search_call");
  assert.equal(call.status, "completed");
  assert.deepEqual(call.queries, [ask.input]);
  assert.ok(call.results && call.results.length > 0 && call.results.length <= 4);
  assert.equal(call.results[0]!.file_id, note.id);
  assert.equal(call.results[0]!.filename, "rrf.txt");
  assert.equal(message?.type, "message");
  const text = message.content[0]!;
  assert.equal(text.type, "output_text");
  assert.match(plain.output_text, /k \+ rank/);
  const citations = text.annotations.filter((annotation) => annotation.type === "file_citation");
  assert.ok(citations.length > 0, JSON.stringify(text.annotations));
  for (const citation of citations) {
    assert.equal(citation.file_id, note.id);
    assert.equal(citation.filename, "rrf.txt");
    assert.match(plain.output_text.slice(citation.index), /^\[\d+/);
  }
  // hybrid_search weighs the two rankings: keyword only, the note is first and scores 1.
  const keyword = await client.responses.create({
    ...ask,
    tools: [{
      type: "file_search",
      vector_store_ids: [store.id],
      ranking_options: { hybrid_search: { embedding_weight: 0, text_weight: 1 } },
    }],
    include: ["file_search_call.results"],
  });
  const keywordCall = keyword.output[0] as OpenAI.Responses.ResponseFileSearchToolCall;
  assert.equal(keywordCall.results?.[0]?.file_id, note.id);
  assert.equal(keywordCall.results?.[0]?.score, 1);
  assert.ok(keywordCall.results!.every((result) => result.score! >= 0 && result.score! <= 1));
  const withoutResults = await client.responses.create(ask);
  assert.equal((withoutResults.output[0] as { results: unknown }).results, null);

  // Streamed: the three file_search_call events in OpenAI's order, before the message.
  const stream = await client.responses.create({ ...ask, stream: true });
  const types: string[] = [];
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === "response.completed") completed = event.response;
  }
  const at = (type: string) => types.indexOf(type);
  assert.ok(at("response.file_search_call.in_progress") > 0, types.join());
  assert.ok(
    at("response.file_search_call.in_progress") < at("response.file_search_call.searching"),
  );
  assert.ok(at("response.file_search_call.searching") < at("response.file_search_call.completed"));
  assert.ok(at("response.file_search_call.completed") < at("response.output_text.delta"));
  assert.ok(types.includes("response.output_text.annotation.added"));
  assert.equal(completed?.output_text, withoutResults.output_text);

  // An unknown store is a 404 naming it, in OpenAI's shape, before anything runs.
  await assert.rejects(
    () =>
      client.responses.create({
        ...ask,
        tools: [{ type: "file_search", vector_store_ids: [store.id, "vs_missing"] }],
      }),
    assertNotFound(/No such vector store: vs_missing/),
  );
  // Another tenant's store is unknown to this one.
  await assert.rejects(
    () => sift.client(KEYS.globex).responses.create(ask),
    assertNotFound(new RegExp(store.id)),
  );
});

Deno.test("openai-node's vectorStores.create with file_ids adds them, and a missing one leaves no store behind", async () => {
  await using sift = serveSift();
  const client = sift.client(KEYS.acme);
  const note = await client.files.create({
    file: await toFile(new TextEncoder().encode(NOTE), "rrf.txt"),
    purpose: "assistants",
  });
  const store = await client.vectorStores.create({ name: "at once", file_ids: [note.id] });
  assert.equal(store.file_counts.completed, 1);
  assert.deepEqual(
    (await client.vectorStores.files.list(store.id)).data.map((file) => file.id),
    [note.id],
  );
  await assert.rejects(
    () => client.vectorStores.create({ name: "broken", file_ids: [note.id, "file-missing"] }),
    assertNotFound(/No such file: file-missing/),
  );
  assert.deepEqual((await client.vectorStores.list()).data.map((entry) => entry.id), [store.id]);
});

Deno.test("the AI SDK's openai.tools.fileSearch gets the call, its result and the file as a source, plain and streamed", async () => {
  await using sift = serveSift();
  const store = await sift.client(KEYS.acme).vectorStores.create({ name: "notes" });
  const note = await sift.client(KEYS.acme).vectorStores.files.uploadAndPoll(
    store.id,
    await toFile(new TextEncoder().encode(NOTE), "rrf.txt"),
  );
  const openai = createOpenAI({ baseURL: sift.baseURL, apiKey: KEYS.acme });
  const ask = {
    model: openai("sift-none"),
    prompt: "What does reciprocal rank fusion sum over the rankings?",
    tools: {
      file_search: openai.tools.fileSearch({ vectorStoreIds: [store.id], maxNumResults: 5 }),
    },
    maxRetries: 0,
  };
  const result = await generateText(ask);
  assert.deepEqual(result.content.map((part) => part.type), [
    "tool-call",
    "tool-result",
    "text",
    "source",
  ]);
  assert.match(result.text, /k \+ rank\) .*\[1\]/);
  const [source] = result.sources;
  assert.equal(source?.sourceType, "document");
  assert.equal(source.sourceType === "document" && source.filename, "rrf.txt");
  assert.equal(
    (source.providerMetadata?.openai as { fileId?: string } | undefined)?.fileId,
    note.id,
  );
  const [call] = result.toolResults;
  assert.equal(call?.toolName, "file_search");

  const streamed = streamText(ask);
  let text = "";
  for await (const delta of streamed.textStream) text += delta;
  assert.equal(text, result.text);
  assert.equal((await streamed.sources).length, result.sources.length);
});

Deno.test("openai-node's fileBatches: uploadAndPoll, createAndPoll with per-file attributes, listFiles; no cancel; a store file's content", async () => {
  await using sift = serveSift();
  const client = sift.client(KEYS.acme);
  const store = await client.vectorStores.create({ name: "batches" });
  const uploaded = await client.vectorStores.fileBatches.uploadAndPoll(store.id, {
    files: [
      await toFile(new TextEncoder().encode(NOTE), "rrf.txt"),
      await toFile(await fixture("paper.pdf"), "paper.pdf"),
    ],
  }, { pollIntervalMs: 50 });
  assert.match(uploaded.id, /^vsfb_[0-9a-f]{24}$/);
  assert.equal(uploaded.status, "completed");
  assert.deepEqual(uploaded.file_counts, {
    in_progress: 0,
    completed: 2,
    failed: 0,
    cancelled: 0,
    total: 2,
  });
  const listed = await client.vectorStores.fileBatches.listFiles(uploaded.id, {
    vector_store_id: store.id,
  });
  assert.equal(listed.data.length, 2);

  const note = await client.files.create({
    file: await toFile(new TextEncoder().encode("Tides turn twice a day."), "tides.txt"),
    purpose: "assistants",
  });
  const batch = await client.vectorStores.fileBatches.createAndPoll(store.id, {
    files: [{ file_id: note.id, attributes: { topic: "tides" } }],
  });
  assert.equal(
    (await client.vectorStores.fileBatches.retrieve(batch.id, { vector_store_id: store.id }))
      .file_counts.completed,
    1,
  );
  const tides = await client.vectorStores.search(store.id, {
    query: "tides",
    filters: { type: "eq", key: "topic", value: "tides" },
  });
  assert.deepEqual(tides.data.map((result) => result.file_id), [note.id]);
  await assert.rejects(
    () => client.vectorStores.fileBatches.cancel(batch.id, { vector_store_id: store.id }),
    assertNotFound(/No route for POST .*\/cancel/),
  );
  await assert.rejects(
    () => client.vectorStores.fileBatches.create(store.id, { file_ids: [note.id, "file-nope"] }),
    assertNotFound(/No such file: file-nope/),
  );

  const chunks = [];
  for await (
    const part of client.vectorStores.files.content(note.id, { vector_store_id: store.id })
  ) {
    chunks.push(part);
  }
  assert.deepEqual(chunks, [{ type: "text", text: "Tides turn twice a day." }]);
});
