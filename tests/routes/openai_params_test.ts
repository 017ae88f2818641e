/**
 * The OpenAI-compatible routes take what OpenAI takes (#19): the official
 * `openai` client with its defaults, and OpenAI's documented parameters sift
 * ignores, get a 200; a parameter OpenAI does not document is a 400 in
 * OpenAI's words, naming it.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { CORPUS } from "./corpus.ts";
import { testApp } from "./helpers.ts";
import { responsesRequestSchema } from "../../functions/orchestrator/responses/request.ts";

type OpenAIError = { error: { message: string; type: string; param: string | null } };

/** An `openai` client that calls the app in-process, through its `fetch` option. */
async function clientOverApp() {
  const { app, env, post } = testApp();
  assert.equal((await post("/v1/documents", { documents: CORPUS })).status, 201);
  const fetch = async (input: string | URL | Request, init?: RequestInit) =>
    await app.request(new Request(input, init), undefined, env);
  const client = new OpenAI({ baseURL: "http://127.0.0.1/v1", apiKey: "x", maxRetries: 0, fetch });
  return { client, post };
}

const MESSAGES = [{ role: "user" as const, content: "How hot is lava?" }];

Deno.test("/v1/chat/completions with temprature is a 400 naming it, in OpenAI's words", async () => {
  const { post } = testApp();
  const response = await post("/v1/chat/completions", {
    model: "sift-none",
    messages: MESSAGES,
    temprature: 0.2,
  });
  assert.equal(response.status, 400);
  const { error } = await response.json() as OpenAIError;
  assert.equal(
    error.message,
    'Unrecognized request argument supplied: temprature (did you mean "temperature"?)',
  );
  assert.equal(error.type, "invalid_request_error");
  const { client } = await clientOverApp();
  await assert.rejects(
    () =>
      client.chat.completions.create({
        model: "sift-none",
        messages: MESSAGES,
        // @ts-expect-error: the misspelling is the point
        temprature: 0.2,
      }),
    (error: unknown) => error instanceof OpenAI.BadRequestError && /temprature/.test(error.message),
  );
});

Deno.test("the openai client with its defaults works on every compatible route", async () => {
  const { client } = await clientOverApp();
  const models = [];
  for await (const model of client.models.list()) models.push(model.id);
  assert.ok(models.includes("sift-none"));
  const completion = await client.chat.completions.create({
    model: "sift-none",
    messages: MESSAGES,
  });
  assert.ok(completion.choices[0]?.message.content);
  let streamed = "";
  const stream = await client.chat.completions.create({
    model: "sift-none",
    messages: MESSAGES,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? "";
  assert.ok(streamed.length > 0);
  // The client asks for base64 unless told otherwise, and decodes it.
  const embedded = await client.embeddings.create({ model: "x", input: ["lava", "basalt"] });
  assert.equal(embedded.data.length, 2);
  assert.ok(embedded.data[0]!.embedding.length > 0);
});

Deno.test("OpenAI's documented chat parameters are accepted and ignored", async () => {
  const { client } = await clientOverApp();
  const completion = await client.chat.completions.create({
    model: "sift-none",
    messages: [{ role: "system", content: "Be brief." }, ...MESSAGES],
    temperature: 0.2,
    top_p: 0.9,
    max_tokens: 200,
    max_completion_tokens: 200,
    frequency_penalty: 0,
    presence_penalty: 0,
    seed: 7,
    stop: ["\n\n"],
    user: "someone",
    metadata: { team: "search" },
    store: false,
    logprobs: false,
    n: 1,
    parallel_tool_calls: false,
    response_format: { type: "text" },
    service_tier: "auto",
    reasoning_effort: "low",
    tools: [{ type: "function", function: { name: "noop", parameters: { type: "object" } } }],
    tool_choice: "none",
  });
  assert.ok(completion.choices[0]?.message.content);
  const embedded = await client.embeddings.create({
    model: "x",
    input: "lava",
    encoding_format: "float",
    user: "someone",
  });
  assert.equal(embedded.data.length, 1);
});

Deno.test("/v1/embeddings refuses an unknown parameter in OpenAI's words", async () => {
  const { post } = testApp();
  const response = await post("/v1/embeddings", { input: "lava", modle: "x" });
  assert.equal(response.status, 400);
  const { error } = await response.json() as OpenAIError;
  assert.equal(
    error.message,
    'Unrecognized request argument supplied: modle (did you mean "model"?)',
  );
});

Deno.test("a rerank preset over a namespace with nothing in it answers 200, not a 502 (found by the property test)", async () => {
  const { post } = testApp();
  const response = await post("/v1/chat/completions", {
    model: "sift-one-turn",
    messages: MESSAGES,
    namespace: "empty",
  });
  assert.equal(response.status, 200, await response.clone().text());
});

/** Every parameter of the openai client's `responses.create`, by the SDK's own type. */
const RESPONSES_PARAMETERS: Record<keyof OpenAI.Responses.ResponseCreateParams, true> = {
  access_programs: true,
  background: true,
  context_management: true,
  conversation: true,
  image: true,
  include: true,
  input: true,
  instructions: true,
  max_output_tokens: true,
  max_tool_calls: true,
  metadata: true,
  model: true,
  moderation: true,
  parallel_tool_calls: true,
  previous_response_id: true,
  prompt: true,
  prompt_cache_key: true,
  prompt_cache_options: true,
  prompt_cache_retention: true,
  reasoning: true,
  safety_identifier: true,
  service_tier: true,
  store: true,
  stream: true,
  stream_options: true,
  temperature: true,
  text: true,
  tool_choice: true,
  tools: true,
  top_logprobs: true,
  top_p: true,
  truncation: true,
  user: true,
};

Deno.test("/v1/responses knows every parameter the openai client documents, and ignores the rest of OpenAI's", async () => {
  for (const name of Object.keys(RESPONSES_PARAMETERS)) {
    assert.ok(Object.hasOwn(responsesRequestSchema.shape, name), `${name} is not in the schema`);
  }
  const { client } = await clientOverApp();
  const response = await client.responses.create({
    model: "sift-none",
    input: [{ role: "developer", content: "Be brief." }, ...MESSAGES],
    instructions: "Cite your sources.",
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 200,
    metadata: { team: "search" },
    store: false,
    include: ["message.output_text.logprobs"],
    parallel_tool_calls: false,
    reasoning: { effort: "low" },
    text: { format: { type: "text" } },
    service_tier: "auto",
    tools: [{ type: "function", name: "noop", parameters: { type: "object" }, strict: false }],
    tool_choice: "none",
    truncation: "disabled",
    user: "someone",
    previous_response_id: null,
  });
  assert.ok(response.output_text.length > 0);
});
