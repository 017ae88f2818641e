/**
 * A structured answer against a real model server on loopback: with the
 * provider's structured output on, the caller's schema goes to it as
 * json_schema (strict only when the caller asked and the schema allows it);
 * with it off, a reply that is not the object is corrected once, and one
 * still wrong after that is a 502, never prose passed off as the object.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { serveTextModel, type TextModelCall } from "../helpers/text_model_server.ts";

const SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { answer: { type: "string" }, year: { type: "integer", minimum: 1900 } },
  required: ["answer", "year"],
  additionalProperties: false,
};
const VALID = '{"answer": "RRF fuses rankings [1].", "year": 2009}';

function chatBody(schema: Record<string, unknown>, strict = true) {
  return {
    model: "sift-none",
    messages: [{ role: "user", content: "When was reciprocal rank fusion published?" }],
    response_format: { type: "json_schema", json_schema: { name: "dated", schema, strict } },
  };
}

function siftAgainst(baseURL: string, structured: boolean) {
  const app = createSiftApp();
  const env = {
    LLM_BASE_URL: baseURL,
    LLM_API_KEY: "x",
    LLM_STRUCTURED_OUTPUTS: String(structured),
  };
  return (body: unknown) =>
    app.request("/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
}

const answerCalls = (calls: TextModelCall[]) =>
  calls.filter((call) => call.prompt.startsWith("answer-structured@"));

Deno.test("with structured outputs on, the caller's schema goes to the provider as json_schema", async () => {
  await using model = serveTextModel(() => VALID);
  const chat = siftAgainst(model.baseURL, true);
  const response = await chat(chatBody(SCHEMA));
  assert.equal(response.status, 200, await response.clone().text());
  const completion = await response.json();
  assert.deepEqual(JSON.parse(completion.choices[0].message.content), JSON.parse(VALID));
  const [call] = answerCalls(model.calls);
  const format = call!.body.response_format as {
    type: string;
    json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
  };
  assert.equal(format.type, "json_schema");
  assert.equal(format.json_schema.name, "dated");
  assert.equal(format.json_schema.strict, true);
  assert.equal(format.json_schema.schema.$schema, undefined, "strict providers reject $schema");
  assert.deepEqual(format.json_schema.schema.properties, SCHEMA.properties);

  // An optional field cannot be strict at OpenAI: asked non-strict rather than refused upstream.
  await chat(chatBody({ ...SCHEMA, required: ["answer"] }));
  const loose = answerCalls(model.calls)[1]!.body.response_format as {
    json_schema: { strict: boolean };
  };
  assert.equal(loose.json_schema.strict, false);
});

Deno.test("without structured outputs, prose is corrected once into the object", async () => {
  let replies = 0;
  await using model = serveTextModel((call) => {
    if (!call.prompt.startsWith("answer-structured@")) return "unused";
    return replies++ === 0 ? "RRF was published in 2009 [1]." : VALID;
  });
  const response = await siftAgainst(model.baseURL, false)(chatBody(SCHEMA));
  assert.equal(response.status, 200, await response.clone().text());
  const completion = await response.json();
  assert.deepEqual(JSON.parse(completion.choices[0].message.content), JSON.parse(VALID));
  const calls = answerCalls(model.calls);
  assert.equal(calls.length, 2);
  assert.equal(calls[0]!.body.response_format, undefined);
  assert.match(calls[0]!.user, /<schema name="dated">/);
  assert.match(calls[1]!.user, /not a JSON object matching the schema/);
  assert.match(calls[1]!.user, /One JSON object matching the schema "dated"/);
  // Both calls' tokens are counted.
  assert.ok(completion.usage.prompt_tokens > 0);
});

Deno.test("an object still wrong after the correction is a 502 in OpenAI's shape, streamed or not", async () => {
  await using model = serveTextModel((call) =>
    call.prompt.startsWith("answer-structured@") ? '{"answer": "x [1].", "year": 12}' : "unused"
  );
  const chat = siftAgainst(model.baseURL, false);
  const response = await chat(chatBody(SCHEMA));
  assert.equal(response.status, 502);
  const { error } = await response.json();
  assert.equal(error.type, "server_error");
  assert.match(error.message, /did not match the schema "dated"/);
  const corrected = answerCalls(model.calls)[1]!;
  assert.match(corrected.user, /year: Too small/, "the model is told what was wrong");

  const streamed = await chat({ ...chatBody(SCHEMA), stream: true });
  const text = await streamed.text();
  assert.doesNotMatch(text, /"content":"\{/, "no half-checked object is streamed");
  assert.match(text, /"error"/);
  assert.doesNotMatch(text, /\[DONE\]/);
});
