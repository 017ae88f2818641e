/**
 * Structured output through the real clients, unmodified but for the base
 * URL, against sift on loopback with the offline model: the AI SDK's
 * `generateObject` with a zod schema (over the Responses API and over chat),
 * openai-node's `chat.completions.parse` with `zodResponseFormat` and
 * `responses.create` with `text.format`, streamed. The object is schema-valid
 * and the same each time; tools are refused with a 400 naming the field.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { createOpenAI } from "@ai-sdk/openai";
import { generateObject, generateText, Output } from "ai";
import { z } from "zod";
import { createSiftApp } from "../../app.ts";

const QUESTION = "What is reciprocal rank fusion?";

// generateObject is deprecated in AI SDK 7 (still what most code calls): no warning per call.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** What a caller asks for: required and optional fields, a range, an enum, a list. */
const Summary = z.object({
  summary: z.string(),
  points: z.array(z.string()).min(1),
  confidence: z.number().min(0).max(1),
  kind: z.enum(["method", "metric", "other"]),
  caveat: z.string().optional(),
});

function serveSift() {
  const app = createSiftApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, {}),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("the AI SDK's generateObject gets a schema-valid, cited object from sift, the same each time", async () => {
  await using sift = serveSift();
  const openai = createOpenAI({ baseURL: `${sift.url}/v1`, apiKey: "unused" });
  for (const model of [openai("sift-two-turn"), openai.chat("sift-none")]) {
    const ask = () => generateObject({ model, schema: Summary, prompt: QUESTION, maxRetries: 0 });
    const { object } = await ask();
    assert.ok(Summary.safeParse(object).success, JSON.stringify(object));
    assert.match(object.summary, /reciprocal rank fusion|rankings/i);
    assert.match(object.summary, /\[\d+\]/, "the strings carry their citations");
    assert.deepEqual((await ask()).object, object, "deterministic offline");
    // Its successor: generateText with an output setting, the same request underneath.
    const { output } = await generateText({
      model,
      output: Output.object({ schema: Summary }),
      prompt: QUESTION,
      maxRetries: 0,
    });
    assert.deepEqual(output, object);
  }
});

Deno.test("openai-node's chat.completions.parse with zodResponseFormat reads sift's object and its citations", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  const completion = await client.chat.completions.parse({
    model: "sift-one-turn",
    messages: [{ role: "user", content: QUESTION }],
    response_format: zodResponseFormat(
      z.object({ answer: z.string(), sources_used: z.array(z.number().int()) }),
      "answer_with_sources",
    ),
  });
  const message = completion.choices[0]!.message;
  assert.ok(message.parsed, message.content ?? "");
  assert.match(message.parsed.answer, /\[\d+\]/);
  assert.deepEqual(JSON.parse(message.content!), message.parsed);
  // Streamed, the object arrives checked, as the content of its deltas.
  const stream = await client.chat.completions.create({
    model: "sift-one-turn",
    messages: [{ role: "user", content: QUESTION }],
    stream: true,
    response_format: zodResponseFormat(
      z.object({ answer: z.string(), sources_used: z.array(z.number().int()) }),
      "answer_with_sources",
    ),
  });
  let streamed = "";
  for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? "";
  assert.deepEqual(JSON.parse(streamed), message.parsed);
  const annotations = (message as unknown as { annotations: { url_citation: object }[] })
    .annotations;
  assert.ok(annotations.length > 0, "the [n] markers inside the object are annotated");
});

Deno.test("openai-node's responses.create with text.format json_schema streams one JSON object", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  const schema = z.toJSONSchema(Summary) as Record<string, unknown>;
  const stream = await client.responses.create({
    model: "sift-none",
    input: QUESTION,
    stream: true,
    text: { format: { type: "json_schema", name: "summary", schema, strict: true } },
  });
  let text = "";
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    if (event.type === "response.output_text.delta") text += event.delta;
    if (event.type === "response.completed") completed = event.response;
  }
  assert.ok(Summary.safeParse(JSON.parse(text)).success, text);
  assert.equal(completed?.output_text, text);

  const plain = await client.responses.create({
    model: "sift-none",
    input: QUESTION,
    text: { format: { type: "json_object" } },
  });
  const object = JSON.parse(plain.output_text);
  assert.equal(typeof object, "object");
  assert.match(object.answer, /\[\d+\]/);
});

Deno.test("tools are refused with a 400 naming the field, never dropped; tool_choice none is served", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  const tool = { type: "function" as const, function: { name: "lookup", parameters: {} } };
  const refused = async (call: () => Promise<unknown>, param: string, message: RegExp) => {
    await assert.rejects(call, (error) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, param);
      assert.equal(error.code, "unsupported_parameter");
      assert.match(error.message, message);
      return true;
    });
  };
  const messages = [{ role: "user" as const, content: QUESTION }];
  await refused(
    () => client.chat.completions.create({ model: "sift-none", messages, tools: [tool] }),
    "tools",
    /calls no tools/,
  );
  await refused(
    () =>
      client.chat.completions.create({
        model: "sift-none",
        messages,
        tools: [tool],
        tool_choice: "required",
      }),
    "tools",
    /calls no tools/,
  );
  await refused(
    () =>
      client.responses.create({
        model: "sift-none",
        input: QUESTION,
        tools: [{ type: "function", name: "lookup", parameters: {}, strict: false }],
      }),
    "tools",
    /calls no tools but file_search/,
  );
  await refused(
    () =>
      client.chat.completions.create({
        model: "sift-none",
        messages,
        tools: [{ type: "file_search", vector_store_ids: ["vs_missing"] } as never],
      }),
    "tools.0",
    /file_search is served by the Responses API/,
  );
  const served = await client.chat.completions.create({
    model: "sift-none",
    messages,
    tools: [tool],
    tool_choice: "none",
  });
  assert.equal(served.choices[0]!.finish_reason, "stop");
});

Deno.test("a schema sift cannot use is a 400 naming the field", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ type: "array", items: { type: "string" } }, /must describe an object/],
    [{ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, /Reference not found/],
  ];
  for (const [schema, message] of cases) {
    await assert.rejects(
      () =>
        client.chat.completions.create({
          model: "sift-none",
          messages: [{ role: "user", content: QUESTION }],
          response_format: { type: "json_schema", json_schema: { name: "bad", schema } },
        }),
      (error) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "response_format.json_schema.schema");
        assert.match(error.message, message);
        return true;
      },
    );
  }
});
