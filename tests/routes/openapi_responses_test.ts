/**
 * The documented responses are the real ones: each route is called on the
 * all-in-one app (offline model) and its reply, JSON or every event of a
 * stream, is checked against the schema `/openapi.json` gives for that status
 * and content type, with a JSON Schema 2020-12 validator.
 */
import assert from "node:assert/strict";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { Webhook } from "standardwebhooks";
import { createSiftApp } from "../../app.ts";
import type { OpenApiDocument } from "../../shared/http/openapi-document.ts";
import { Runtime } from "../../compose/runtime.ts";
import { startWebhookReceiver } from "../helpers/webhook_receiver.ts";
import { CORPUS } from "./corpus.ts";
import { EMPTY_ENV, readEvents } from "./helpers.ts";

type Response200 = { $ref?: string; content?: Record<string, { schema: object }> };

/** Checks replies against the document's response schemas. */
class Conformance {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly checked = new Set<string>();

  constructor(readonly document: OpenApiDocument) {}

  #schema(path: string, method: string, status: number, mediaType: string): ValidateFunction {
    const key = `${method} ${path} ${status} ${mediaType}`;
    const known = this.#compiled.get(key);
    if (known) return known;
    const operation = this.document.paths[path]?.[method] as
      | { responses: Record<string, Response200> }
      | undefined;
    assert.ok(operation, `${method} ${path} is not documented`);
    let response = operation.responses[String(status)];
    assert.ok(response, `${method} ${path} does not document ${status}`);
    if (response.$ref) {
      response = this.document.components?.responses?.[response.$ref.split("/").pop()!] as
        | Response200
        | undefined;
    }
    const schema = response?.content?.[mediaType]?.schema;
    assert.ok(schema, `${method} ${path} ${status} documents no ${mediaType}`);
    const compiled = this.#ajv.compile(schema);
    this.#compiled.set(key, compiled);
    return compiled;
  }

  #check(label: string, validate: ValidateFunction, value: unknown) {
    assert.ok(
      validate(value),
      `${label}: ${JSON.stringify(validate.errors, null, 1)}\n${
        JSON.stringify(value).slice(0, 800)
      }`,
    );
  }

  /** Validates a reply (its status must be `status`) against the document, and returns it. */
  async reply(template: string, method: string, response: Response, status: number) {
    const clone = response.clone();
    assert.equal(response.status, status, `${method} ${template}: ${await clone.text()}`);
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const validate = this.#schema(template, method, status, mediaType);
    const label = `${method} ${template} ${status}`;
    this.checked.add(`${method.toUpperCase()} ${template}`);
    if (mediaType === "text/event-stream") {
      const events = await readEvents(response);
      assert.ok(events.length > 0, `${label}: no events`);
      for (const event of events) {
        // OpenAI-style streams send unnamed `data:` lines and end with `[DONE]`.
        if (event.event === "message") {
          if (event.data !== "[DONE]") this.#check(label, validate, event.data);
        } else {
          this.#check(`${label} ${event.event}`, validate, event);
        }
      }
      return events;
    }
    if (mediaType === "text/html") return await response.text();
    if (mediaType === "text/plain") {
      const text = await response.text();
      this.#check(label, validate, text);
      return text;
    }
    const body = await response.json();
    this.#check(label, validate, body);
    return body;
  }
}

const INGEST_SECRET = "whsec_" + btoa("sift-openapi-ingest-secret-0123456789");
const WEBHOOK_SECRET = "whsec_" + btoa("sift-openapi-jobs-secret-0123456789");
const ENV = {
  ...EMPTY_ENV,
  INGEST_WEBHOOK_SECRET: INGEST_SECRET,
  WEBHOOK_SECRET,
  ALLOW_PRIVATE_CALLBACKS: "true",
};

function harness() {
  const app = createSiftApp({ runtime: new Runtime() });
  const background: Promise<unknown>[] = [];
  const context = {
    waitUntil: (work: Promise<unknown>) => background.push(work),
    passThroughOnException() {},
    props: {},
  };
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.request(
      path,
      body instanceof FormData
        // A form sets its own multipart content type, with its boundary.
        ? { method, headers, body }
        : {
          method,
          headers: { "content-type": "application/json", ...headers },
          ...(body === undefined
            ? {}
            : { body: typeof body === "string" ? body : JSON.stringify(body) }),
        },
      ENV,
      context,
    );
  return { call, background };
}

const QUERY = "How does reciprocal rank fusion score a document?";
const DOCUMENTS = CORPUS.map((document) => ({ id: document.id, text: document.text }));

Deno.test("every documented JSON and event-stream reply matches its schema", async () => {
  const { call, background } = harness();
  const document = await (await call("GET", "/openapi.json")).json() as OpenApiDocument;
  const check = new Conformance(document);
  const post = async (path: string, body: unknown, status = 200, template = path) =>
    await check.reply(template, "post", await call("POST", path, body), status);
  const get = async (path: string, template: string, status = 200) =>
    await check.reply(template, "get", await call("GET", path), status);

  await get("/healthz", "/healthz");
  const acknowledged = await call("DELETE", "/v1/index/recovered");
  await check.reply("/v1/index/recovered", "delete", acknowledged, 200);
  await get("/openapi.json", "/openapi.json");
  await get("/", "/");
  await post("/v1/documents", {
    documents: CORPUS.map((entry) => ({
      ...entry,
      url: `https://example.com/${entry.id}`,
      authors: ["A"],
    })),
  }, 201);
  await get("/v1/documents?limit=2", "/v1/documents");
  await get(`/v1/documents/${CORPUS[0]!.id}`, "/v1/documents/{id}");
  await post("/v1/embeddings", { input: ["one", "two"] });
  await post("/v1/embeddings", { input: "one", encoding_format: "base64" });
  await post("/v1/search", { query: QUERY, top_k: 3 });
  await post("/v1/fuse", { query: QUERY, variations: 2 });
  await post("/v1/fuse", { rankings: [["a", "b"], ["b", "c"]] });
  await post("/v1/rubrics", { query: "Compare BM25 with recent dense retrievers" });
  await post("/v1/rerank", { query: QUERY, documents: DOCUMENTS, explain: true });
  await post("/v1/rerank", { query: QUERY, documents: DOCUMENTS, strategy: "two-turn" });
  await post("/v1/rerank", { query: QUERY, documents: DOCUMENTS, strategy: "none" });
  await post("/v2/rerank", { model: "sift-relevance", query: QUERY, documents: ["a", "b"] });
  await post("/v1/rerank", { query: QUERY, documents: DOCUMENTS, strategy: "item" });
  await post("/v1/rerank", {
    query: QUERY,
    documents: DOCUMENTS,
    strategy: "item",
    item: { variant: "A_s", judgment: "pointwise", answer: "implicit", m: 2, answer_stop: 0.9 },
  });
  await post("/v2/rerank", { model: "sift-item", query: QUERY, documents: ["a b.", "b c."] });
  await post("/v1/query", {
    query: QUERY,
    pipeline: { rerank: { strategy: "item", item: { variant: "A_r" } } },
  });
  await post("/v1/rerank", { query: QUERY, documents: DOCUMENTS, strategy: "tot" });
  await post("/v1/rerank", {
    query: QUERY,
    documents: DOCUMENTS,
    strategy: "tot",
    tot: { unit: "sentence", dimensions: { level1: ["fluency", "novelty"] } },
  });
  await post("/v2/rerank", { model: "sift-tot", query: QUERY, documents: ["a b.", "b c."] });
  await post("/v1/query", {
    query: QUERY,
    pipeline: { rerank: { strategy: "tot", tot: { unit: "sentence" } } },
  });
  await post("/v1/answer", { query: QUERY, documents: DOCUMENTS });
  await post("/v1/answer", { query: QUERY, documents: DOCUMENTS, stream: true });
  await post("/v1/query", { query: QUERY });
  await post("/v1/query", {
    query: QUERY,
    pipeline: { retrieval: { fusion: 2 }, rerank: { strategy: "two-turn", explain: true } },
  });
  await post("/v1/judge/retrieval", { query: QUERY, documents: DOCUMENTS });
  await post("/v1/judge/answer", {
    query: QUERY,
    answer: "It sums 1/(k + rank) [1].",
    documents: DOCUMENTS,
  });
  await post("/v1/judge/pairwise", {
    query: QUERY,
    answer_a: "1/(k + rank).",
    answer_b: "No idea.",
  });
  await post("/v1/judge/similarity", { answer: "1/(k + rank)", reference: "one over k plus rank" });
  await post("/v1/judge/synthetic-queries", { passages: [CORPUS[0]!.text], per_passage: 2 });
  await post("/v1/judge/tournament", {
    games: [{ a: "x", b: "y", winner: "A" }, { a: "x", b: "y", winner: "C" }],
    tournaments: 5,
    bootstrap: 5,
  });
  await post("/v1/judge/agreement", { x: [1, 1, 1], y: [1, 2, 3] });
  await get("/v1/models", "/v1/models");
  await get("/v1/models/sift-two-turn", "/v1/models/{model}");
  await get("/v1/models/nope", "/v1/models/{model}", 404);
  const chat = {
    model: "sift-one-turn",
    messages: [
      { role: "user", content: "What is BM25?" },
      { role: "assistant", content: "A ranking function [1]." },
      { role: "user", content: [{ type: "text", text: "And reciprocal rank fusion?" }] },
    ],
  };
  await post("/v1/chat/completions", chat);
  await post("/v1/chat/completions", {
    ...chat,
    stream: true,
    stream_options: { include_usage: true },
  });
  await post("/v1/chat/completions", { model: "sift-none", messages: [] }, 400);
  const responses = {
    model: "sift-one-turn",
    input: chat.messages.slice(0, 2),
    instructions: "Be brief.",
  };
  await post("/v1/responses", {
    ...responses,
    input: [...chat.messages.slice(0, 2), {
      role: "user",
      content: [{ type: "input_text", text: "And reciprocal rank fusion?" }],
    }],
  });
  await post("/v1/responses", { model: "sift-none", input: QUERY, stream: true });
  await post(
    "/v1/responses",
    { model: "sift-none", input: QUERY, previous_response_id: "resp_1" },
    400,
  );
  await post("/v1/responses", { model: "nope", input: QUERY }, 404);

  // Documents pushed by a signed webhook: ingested, then acknowledged as a repeat.
  const payload = JSON.stringify({
    documents: [{ id: "pushed", text: "Pushed text about BM25." }],
  });
  // One instant for both: read twice, a second can tick between them and break the signature.
  const sentAt = new Date();
  const signed = new Webhook(INGEST_SECRET).sign("msg_1", sentAt, payload);
  const signature = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signed,
  };
  for (const status of [201, 200]) {
    await check.reply(
      "/v1/webhooks/documents",
      "post",
      await call("POST", "/v1/webhooks/documents", payload, signature),
      status,
    );
  }
  await check.reply(
    "/v1/webhooks/documents",
    "post",
    await call("POST", "/v1/webhooks/documents", payload, {
      ...signature,
      "webhook-signature": "v1,Zm9v",
    }),
    401,
  );

  await check.reply("/v1/documents/{id}", "delete", await call("DELETE", "/v1/documents/rrf"), 200);
  await check.reply("/v1/documents/{id}", "delete", await call("DELETE", "/v1/documents/rrf"), 404);
  await post("/v1/search", {}, 400);

  // A job delivered to a loopback receiver, then read back.
  const receiver = startWebhookReceiver(WEBHOOK_SECRET);
  try {
    const job = await post("/v1/jobs", {
      route: "/v1/search",
      body: { query: QUERY },
      callback_url: receiver.url,
    }, 202) as { id: string };
    const deadline = Date.now() + 20_000;
    let status: { status: string; delivery: { delivered_at?: string } };
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await get(`/v1/jobs/${job.id}`, "/v1/jobs/{id}") as typeof status;
    } while (!status.delivery.delivered_at && Date.now() < deadline);
    assert.ok(status.delivery.delivered_at, JSON.stringify(status));
    await get("/v1/jobs/job_missing", "/v1/jobs/{id}", 404);
  } finally {
    await receiver.close();
  }

  // An evaluation: started, run on the queue, then its status and both reports.
  const started = await post("/v1/evaluations", {
    dataset: {
      questions: [{ question: QUERY, reference_answer: "1/(k + rank)", target_doc: "bm25" }],
    },
    variants: "none",
  }, 202) as { id: string };
  // It runs on the (in-memory) queue, a slice of questions per message.
  for (let i = 0; i < 200; i++) {
    const { status } = await (await call("GET", `/v1/evaluations/${started.id}`)).json();
    if (status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(background);
  await get(`/v1/evaluations/${started.id}`, "/v1/evaluations/{id}");
  // A slice message sent again for a finished run does nothing.
  await post(
    `/v1/evaluations/${started.id}/continue`,
    { from: 0 },
    200,
    "/v1/evaluations/{id}/continue",
  );
  await get(`/v1/evaluations/${started.id}/report`, "/v1/evaluations/{id}/report");
  await get(`/v1/evaluations/${started.id}/report?format=json`, "/v1/evaluations/{id}/report");
  await get("/v1/evaluations/missing", "/v1/evaluations/{id}", 404);

  // MCP: each message of the event stream (progress, then the result) is a JSON-RPC message.
  const mcp = (body: unknown) =>
    call("POST", "/mcp", body, { accept: "application/json, text/event-stream" });
  await check.reply(
    "/mcp",
    "post",
    await mcp({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask", arguments: { query: QUERY }, _meta: { progressToken: 1 } },
    }),
    200,
  );
  await check.reply("/mcp", "post", await mcp({ jsonrpc: "2.0", id: 1 }), 400);

  // OpenAI's Files and Vector Stores, in the order openai-node's helpers call them.
  const form = new FormData();
  form.append("purpose", "assistants");
  form.append("file", new Blob([CORPUS[0]!.text]), "rrf.txt");
  const file = await post("/v1/files", form) as { id: string };
  await get("/v1/files?limit=5", "/v1/files");
  await get(`/v1/files/${file.id}`, "/v1/files/{file_id}");
  await get("/v1/files/file-missing", "/v1/files/{file_id}", 404);
  await check.reply(
    "/v1/files/{file_id}/content",
    "get",
    await call("GET", `/v1/files/${file.id}/content`),
    200,
  );
  const store = await post("/v1/vector_stores", { name: "s", metadata: { a: "b" } }) as {
    id: string;
  };
  const storePath = "/v1/vector_stores/{vector_store_id}";
  await get("/v1/vector_stores", "/v1/vector_stores");
  await get(`/v1/vector_stores/${store.id}`, storePath);
  await post(`/v1/vector_stores/${store.id}`, { name: "t" }, 200, storePath);
  await post(
    `/v1/vector_stores/${store.id}/files`,
    { file_id: file.id, attributes: { year: 2009 } },
    200,
    `${storePath}/files`,
  );
  await get(`/v1/vector_stores/${store.id}/files?filter=completed`, `${storePath}/files`);
  const storeFile = `${storePath}/files/{file_id}`;
  await get(`/v1/vector_stores/${store.id}/files/${file.id}`, storeFile);
  await post(
    `/v1/vector_stores/${store.id}/files/${file.id}`,
    { attributes: { year: 2010 } },
    200,
    storeFile,
  );
  await post(
    `/v1/vector_stores/${store.id}/search`,
    { query: QUERY, filters: { type: "gte", key: "year", value: 2010 } },
    200,
    `${storePath}/search`,
  );
  await post("/v1/vector_stores/vs_missing/search", { query: QUERY }, 404, `${storePath}/search`);
  await get(`/v1/vector_stores/${store.id}/files/${file.id}/content`, `${storeFile}/content`);
  const batchPath = `${storePath}/file_batches`;
  const batch = await post(
    `/v1/vector_stores/${store.id}/file_batches`,
    { files: [{ file_id: file.id, attributes: { year: 2010 } }] },
    200,
    batchPath,
  ) as { id: string };
  await get(`/v1/vector_stores/${store.id}/file_batches/${batch.id}`, `${batchPath}/{batch_id}`);
  await get(
    `/v1/vector_stores/${store.id}/file_batches/${batch.id}/files`,
    `${batchPath}/{batch_id}/files`,
  );
  const fileSearch = {
    model: "sift-none",
    input: QUERY,
    tools: [{ type: "file_search", vector_store_ids: [store.id] }],
    include: ["file_search_call.results"],
  };
  await post("/v1/responses", fileSearch);
  await post("/v1/responses", { ...fileSearch, stream: true });
  for (
    const [path, template] of [
      [`/v1/vector_stores/${store.id}/files/${file.id}`, storeFile],
      [`/v1/vector_stores/${store.id}`, storePath],
      [`/v1/files/${file.id}`, "/v1/files/{file_id}"],
    ] as const
  ) {
    await check.reply(template, "delete", await call("DELETE", path), 200);
  }

  // Every documented operation was called at least once.
  const documented = Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)
    );
  assert.deepEqual(documented.filter((operation) => !check.checked.has(operation)), []);
});

Deno.test("the conformance check fails a reply that breaks its schema", async () => {
  const { call } = harness();
  const document = await (await call("GET", "/openapi.json")).json() as OpenApiDocument;
  const check = new Conformance(document);
  const wrong = Response.json({ results: [{ id: "a", score: "high" }] });
  await assert.rejects(
    () => check.reply("/v1/search", "post", wrong, 200),
    /must have required property 'doc_id'|must be number/,
  );
});
