/**
 * `POST /v1/chat/completions` and `GET /v1/models`: OpenAI's shapes over the
 * `/v1/query` pipeline, called with `app.request` on the offline model.
 */
import assert from "node:assert/strict";
import { CORPUS } from "./corpus.ts";
import { EMPTY_ENV, readEvents, testApp, withoutErrorLogs } from "./helpers.ts";

const VOLCANO_URL = "https://example.org/volcanoes";
const PRESETS = [
  "sift-none",
  "sift-one-turn",
  "sift-two-turn",
  "sift-relevance",
  "sift-fusion",
  "sift-fusion-two-turn",
];

type Annotation = {
  type: string;
  url_citation: { url: string; title: string; start_index: number; end_index: number };
};
type Source = { index: number; id: string; doc_id: string; title?: string; text: string };
type Completion = {
  object: string;
  model: string;
  choices: {
    index: number;
    message: { role: string; content: string; annotations: Annotation[] };
    finish_reason: string;
  }[];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cost_usd: number | null;
  };
  sources: Source[];
  sift: { query: string; rewritten: boolean; steps: { name: string; tokens_in: number }[] };
};
type OpenAIError = {
  error: { message: string; type: string; param: string | null; code: unknown };
};

/** The test corpus, the volcano document with a `url` of its own. */
async function appWithCorpus(env = EMPTY_ENV) {
  const setup = testApp(env);
  const documents = CORPUS.map((document) =>
    document.id === "volcano" ? { ...document, url: VOLCANO_URL } : document
  );
  assert.equal((await setup.post("/v1/documents", { documents })).status, 201);
  return setup;
}

function ask(content: string, extra: Record<string, unknown> = {}) {
  return { model: "sift-none", messages: [{ role: "user", content }], ...extra };
}

/** Every annotation's range is a `[n]` marker of the content. */
function assertAnnotationsCoverMarkers(content: string, annotations: Annotation[]) {
  assert.ok(annotations.length > 0, content);
  for (const { type, url_citation: citation } of annotations) {
    assert.equal(type, "url_citation");
    assert.match(content.slice(citation.start_index, citation.end_index), /^\[\d+(?:, ?\d+)*\]$/);
  }
}

Deno.test("GET /v1/models lists every preset in OpenAI's list shape", async () => {
  const { app, env } = testApp();
  const response = await app.request("/v1/models", {}, env);
  assert.equal(response.status, 200);
  const list = await response.json() as { object: string; data: Record<string, unknown>[] };
  assert.equal(list.object, "list");
  for (const id of PRESETS) assert.ok(list.data.some((model) => model.id === id), id);
  for (const model of list.data) {
    assert.deepEqual(Object.keys(model).sort(), ["created", "id", "object", "owned_by"]);
    assert.equal(model.object, "model");
    assert.equal(model.owned_by, "sift");
    assert.ok(Number.isInteger(model.created));
  }
  const one = await app.request("/v1/models/sift-two-turn", {}, env);
  assert.equal((await one.json() as { id: string }).id, "sift-two-turn");
  const missing = await app.request("/v1/models/gpt-4o", {}, env);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json() as OpenAIError).error.code, "model_not_found");
});

Deno.test("a chat completion answers the last user message with annotated [n] markers and sources", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/chat/completions", {
    ...ask("What feeds the eruptions of a volcano?"),
    // Sampling parameters the pipeline cannot honour are accepted and ignored.
    temperature: 0.2,
    top_p: 0.9,
    max_tokens: 50,
    max_completion_tokens: 50,
    presence_penalty: 0.5,
    frequency_penalty: 0.5,
    seed: 7,
    stop: ["\n\n"],
    user: "someone",
    logit_bias: { "50256": -100 },
    n: 1,
  });
  assert.equal(response.status, 200);
  const completion = await response.json() as Completion;
  assert.equal(completion.object, "chat.completion");
  assert.equal(completion.model, "sift-none");
  const [choice] = completion.choices;
  assert.equal(choice!.finish_reason, "stop");
  assert.equal(choice!.message.role, "assistant");
  const { content, annotations } = choice!.message;
  assertAnnotationsCoverMarkers(content, annotations);

  // [n] cites sources[n - 1]; the volcano document's own url wins over the sift: URI.
  const volcano = completion.sources.find((source) => source.doc_id === "volcano")!;
  assert.ok(content.includes(`[${volcano.index}]`), content);
  const cited = annotations.find((annotation) =>
    content.slice(annotation.url_citation.start_index, annotation.url_citation.end_index) ===
      `[${volcano.index}]`
  )!;
  assert.deepEqual(cited.url_citation.url, VOLCANO_URL);
  assert.equal(cited.url_citation.title, "Volcanoes");
  assert.equal(volcano.id, "volcano#0");
  assert.match(volcano.text, /Magma chambers/);
  completion.sources.forEach((source, i) => assert.equal(source.index, i + 1));
  for (const source of completion.sources.filter((source) => source.doc_id !== "volcano")) {
    assert.ok(!("url" in source), "only a document's own url is a source's url");
  }

  const { usage } = completion;
  assert.ok(usage.completion_tokens > 0 && usage.prompt_tokens > 0);
  assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
  assert.equal(usage.cost_usd, 0, "the offline model costs nothing");
  assert.deepEqual(completion.sift.steps.map((step) => step.name), ["retrieval", "answer"]);
  assert.equal(completion.sift.rewritten, false);
});

Deno.test("a document without a url is cited by a sift: URI naming its chunk", async () => {
  const { post } = await appWithCorpus();
  const response = await post(
    "/v1/chat/completions",
    ask("How does reciprocal rank fusion merge rankings?"),
  );
  const completion = await response.json() as Completion;
  const urls = completion.choices[0]!.message.annotations.map((a) => a.url_citation.url);
  assert.ok(urls.includes("sift://default/rrf%230"), urls.join(", "));
});

Deno.test("with earlier turns the question is first rewritten to stand alone, and its tokens count", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/chat/completions", {
    model: "sift-none",
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: "What is reciprocal rank fusion?" },
      { role: "assistant", content: "It merges several rankings into one [1]." },
      { role: "user", content: [{ type: "text", text: "Which value does its k take?" }] },
    ],
  });
  assert.equal(response.status, 200);
  const completion = await response.json() as Completion;
  assert.equal(completion.sift.rewritten, true);
  assert.equal(completion.sift.query, "Which value does reciprocal rank fusion's k take?");
  const [rewrite] = completion.sift.steps;
  assert.equal(rewrite!.name, "rewrite");
  assert.ok(rewrite!.tokens_in > 0);
  const stepTokens = completion.sift.steps.reduce((sum, step) => sum + step.tokens_in, 0);
  assert.equal(completion.usage.prompt_tokens, stepTokens);
  assert.equal(completion.sources[0]!.doc_id, "rrf");
  assert.match(completion.choices[0]!.message.content, /k equal to 60/);
});

Deno.test("a streamed completion sends role, content deltas, annotations, stop, usage, [DONE]", async () => {
  const { post } = await appWithCorpus();
  const request = ask("What feeds the eruptions of a volcano?");
  const whole = await (await post("/v1/chat/completions", request)).json() as Completion;

  const response = await post("/v1/chat/completions", {
    ...request,
    stream: true,
    stream_options: { include_usage: true },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const events = await readEvents(response);
  assert.equal(events.at(-1)?.data, "[DONE]");
  type Chunk = {
    object: string;
    choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
    usage?: Completion["usage"] | null;
    sources?: Source[];
  };
  const chunks = events.slice(0, -1).map((event) => event.data as Chunk);
  for (const chunk of chunks) assert.equal(chunk.object, "chat.completion.chunk");

  assert.deepEqual(chunks[0]!.choices[0]!.delta, { role: "assistant", content: "" });
  const deltas = chunks.slice(1).filter((chunk) => chunk.choices[0]?.delta.content !== undefined);
  assert.ok(deltas.length > 1, "the answer arrives in several deltas");
  const content = deltas.map((chunk) => chunk.choices[0]!.delta.content).join("");
  assert.equal(content, whole.choices[0]!.message.content);

  const annotated = chunks.find((chunk) => chunk.choices[0]?.delta.annotations)!;
  assert.ok(chunks.indexOf(annotated) > chunks.indexOf(deltas.at(-1)!), "after the last delta");
  const annotations = annotated.choices[0]!.delta.annotations as Annotation[];
  assertAnnotationsCoverMarkers(content, annotations);
  assert.deepEqual(annotations, whole.choices[0]!.message.annotations);
  assert.deepEqual(annotated.sources, whole.sources);

  const [stop, usage] = chunks.slice(-2);
  assert.deepEqual(stop!.choices[0], {
    index: 0,
    delta: {},
    logprobs: null,
    finish_reason: "stop",
  });
  assert.deepEqual(usage!.choices, []);
  // The same question again: its embedding comes from the cache, so retrieval counts no tokens.
  const embedded = whole.sift.steps.find((step) => step.name === "retrieval")!.tokens_in;
  assert.ok(embedded > 0);
  assert.deepEqual(usage!.usage, {
    ...whole.usage,
    prompt_tokens: whole.usage.prompt_tokens - embedded,
    total_tokens: whole.usage.total_tokens - embedded,
  });
  assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
});

Deno.test("a streamed completion without include_usage sends no usage chunk", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/chat/completions", {
    ...ask("What is a volcano?"),
    stream: true,
  });
  const chunks = (await readEvents(response)).slice(0, -1).map((event) =>
    event.data as { choices: unknown[] }
  );
  assert.ok(chunks.every((chunk) => chunk.choices.length === 1 && !("usage" in chunk)));
});

Deno.test("bad chat requests get 400 in OpenAI's error shape, naming the field in param", async () => {
  const { post } = testApp();
  const cases: [unknown, string | null, RegExp][] = [
    [{ messages: [{ role: "user", content: "hi" }] }, "model", /^model: /],
    [{ model: 4, messages: [{ role: "user", content: "hi" }] }, "model", /^model: /],
    [{ model: "sift-none" }, "messages", /^messages: /],
    [{ model: "sift-none", messages: [] }, "messages", /at least one message/],
    [ask("hi", { n: 2 }), "n", /^n: must be 1/],
    [ask("hi", { stream: "yes" }), "stream", /^stream: /],
    [{ model: "sift-none", messages: [{ role: "robot", content: "hi" }] }, "messages.0.role", /./],
    [
      { model: "sift-none", messages: [{ role: "user", content: 42 }] },
      "messages.0.content",
      /string or an array of text parts/,
    ],
    [
      {
        model: "sift-none",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }],
      },
      "messages.0.content.0.type",
      /only "text" parts/,
    ],
    [{ model: "sift-none", messages: [{ role: "system", content: "hi" }] }, "messages", /user/],
    [
      {
        model: "sift-none",
        messages: [{ role: "user", content: "first" }, { role: "user", content: "  " }],
      },
      "messages.1.content",
      /must not be empty/,
    ],
    [ask("x".repeat(2001)), "messages.0.content", /at most 2000/],
    [ask("hi", { namespace: "no spaces" }), "namespace", /^namespace: /],
  ];
  for (const [body, param, message] of cases) {
    const response = await post("/v1/chat/completions", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    const { error } = await response.json() as OpenAIError;
    assert.deepEqual(Object.keys(error).sort(), ["code", "message", "param", "type"]);
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.param, param, JSON.stringify(body));
    assert.match(error.message, message);
  }

  const invalidJson = await post("/v1/chat/completions", undefined);
  const raw = await invalidJson.json() as OpenAIError;
  assert.equal(invalidJson.status, 400);
  assert.equal(raw.error.type, "invalid_request_error");
  assert.equal(raw.error.param, null);
});

Deno.test("an unknown model gets 404 model_not_found in OpenAI's shape", async () => {
  const { post } = testApp();
  const response = await post("/v1/chat/completions", { ...ask("hi"), model: "gpt-4o" });
  assert.equal(response.status, 404);
  const { error } = await response.json() as OpenAIError;
  assert.equal(error.type, "invalid_request_error");
  assert.equal(error.param, "model");
  assert.equal(error.code, "model_not_found");
  assert.match(error.message, /sift-two-turn/);
});

Deno.test("a failed pipeline step is a 502 whole, and an error chunk without [DONE] streamed", async () => {
  // Nothing listens on port 9: the answer step cannot be reached.
  const { post } = await appWithCorpus({ ...EMPTY_ENV, STEP_URL_ANSWER: "http://127.0.0.1:9" });
  await withoutErrorLogs(async () => {
    const whole = await post("/v1/chat/completions", ask("What is a volcano?"));
    assert.equal(whole.status, 502);
    const { error } = await whole.json() as OpenAIError;
    assert.equal(error.type, "server_error");
    assert.equal(error.code, "upstream_error");
    assert.match(error.message, /answer step/);

    const streamed = await post("/v1/chat/completions", {
      ...ask("What is a volcano?"),
      stream: true,
    });
    assert.equal(streamed.status, 200);
    const events = await readEvents(streamed);
    assert.ok(events.every((event) => event.data !== "[DONE]"));
    const last = events.at(-1)!.data as OpenAIError;
    assert.equal(last.error.type, "server_error");
    assert.match(last.error.message, /answer step/);
  });
});

Deno.test("with API_KEYS set the chat routes need the bearer key (401 comes from the shell)", async () => {
  const { post, app } = testApp({ ...EMPTY_ENV, API_KEYS: "k1" });
  assert.equal((await post("/v1/chat/completions", ask("hi"))).status, 401);
  const env = { ...EMPTY_ENV, API_KEYS: "k1" };
  assert.equal((await app.request("/v1/models", {}, env)).status, 401);
  const keyed = await app.request("/v1/models", { headers: { authorization: "Bearer k1" } }, env);
  assert.equal(keyed.status, 200);
});
