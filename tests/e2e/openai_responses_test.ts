/**
 * OpenAI's Responses API from the clients that call it unmodified, over real
 * HTTP to sift (the demo corpus, the offline model): the openai client's
 * `responses.create`, plain and streamed, its `responses.stream` (which checks
 * every event against the ones before it), and the AI SDK's default provider,
 * `openai(model)`, with `generateText` and `streamText`.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { generateText, streamText } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createSiftApp } from "../../app.ts";

const QUESTION = "What is reciprocal rank fusion?";
const CONVERSATION: OpenAI.Responses.ResponseInput = [
  { role: "user", content: QUESTION },
  { role: "assistant", content: "It merges several rankings into one." },
  { role: "user", content: [{ type: "input_text", text: "How is its score computed?" }] },
];

type Citation = {
  type: string;
  url: string;
  title: string;
  start_index: number;
  end_index: number;
};

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

/** Every annotation covers a `[n]` marker of the text, and there is one. */
function assertCitationsCoverMarkers(text: string, annotations: readonly unknown[]) {
  assert.ok(annotations.length > 0, `no annotations for: ${text}`);
  for (const annotation of annotations as Citation[]) {
    assert.equal(annotation.type, "url_citation");
    const marker = text.slice(annotation.start_index, annotation.end_index);
    assert.match(marker, /^\[\d+(?:\s*[,;]\s*\d+)*\]$/, JSON.stringify(annotation));
    assert.ok(annotation.url.length > 0 && annotation.title.length > 0);
  }
}

/** The message's one `output_text` part. */
function textOf(response: OpenAI.Responses.Response) {
  const [message] = response.output;
  assert.equal(message?.type, "message");
  const [part] = (message as OpenAI.Responses.ResponseOutputMessage).content;
  assert.equal(part?.type, "output_text");
  return part as OpenAI.Responses.ResponseOutputText;
}

Deno.test("the openai client's responses.create gets cited answers, whole and streamed", async (t) => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });

  let whole = "";
  await t.step("whole: one output_text with url_citations, usage with cost_usd", async () => {
    const response = await client.responses.create({
      model: "sift-two-turn",
      input: CONVERSATION,
      instructions: "Answer briefly.",
      temperature: 0.2,
    });
    assert.equal(response.object, "response");
    assert.equal(response.status, "completed");
    assert.equal(response.model, "sift-two-turn");
    const part = textOf(response);
    assert.match(part.text, /reciprocal rank fusion|rrf/i);
    assertCitationsCoverMarkers(part.text, part.annotations);
    assert.equal(response.output_text, part.text);
    const usage = response.usage as OpenAI.Responses.ResponseUsage & { cost_usd: unknown };
    assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0);
    assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
    assert.ok("cost_usd" in usage);
    whole = part.text;
  });

  await t.step("streamed: the events in order, numbered, and the same text", async () => {
    const stream = await client.responses.create({
      model: "sift-two-turn",
      input: CONVERSATION,
      stream: true,
    });
    const types: string[] = [];
    let text = "";
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      assert.equal(event.sequence_number, types.length);
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    const deltas = types.filter((type) => type === "response.output_text.delta").length;
    const citations = types.filter((type) => type === "response.output_text.annotation.added");
    assert.ok(deltas > 1 && citations.length > 0, types.join(" "));
    assert.deepEqual(types, [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(deltas).fill("response.output_text.delta"),
      ...citations,
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    assert.equal(text, whole);
    assert.equal(textOf(completed!).text, whole);
    assertCitationsCoverMarkers(text, textOf(completed!).annotations);
  });

  await t.step("responses.stream accumulates the same response", async () => {
    const stream = client.responses.stream({ model: "sift-none", input: QUESTION });
    const final = await stream.finalResponse();
    assert.match(final.output_text, /reciprocal rank fusion|rrf/i);
    assertCitationsCoverMarkers(final.output_text, textOf(final).annotations);
  });

  await t.step("previous_response_id is a 400 naming it", async () => {
    await assert.rejects(
      () =>
        client.responses.create({
          model: "sift-none",
          input: QUESTION,
          previous_response_id: "resp_123",
        }),
      (error) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, "previous_response_id");
        assert.match(error.message, /send the earlier turns/);
        return true;
      },
    );
  });

  await t.step("an unknown model is OpenAI's 404", async () => {
    await assert.rejects(
      () => client.responses.create({ model: "gpt-5", input: QUESTION }),
      (error) => {
        assert.ok(error instanceof OpenAI.NotFoundError, String(error));
        assert.equal(error.code, "model_not_found");
        assert.equal(error.param, "model");
        return true;
      },
    );
  });
});

Deno.test("the AI SDK's default openai(model) gets cited answers with generateText and streamText", async (t) => {
  await using sift = serveSift();
  const openai = createOpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x" });

  await t.step("generateText", async () => {
    const result = await generateText({
      model: openai("sift-none"),
      prompt: QUESTION,
      maxRetries: 0,
    });
    assert.match(result.text, /reciprocal rank fusion|rrf/i);
    assert.ok(result.sources.length > 0, "url_citations become sources");
    for (const source of result.sources) {
      assert.equal(source.sourceType, "url");
    }
    assert.ok((result.usage.inputTokens ?? 0) > 0 && (result.usage.outputTokens ?? 0) > 0);
  });

  await t.step("streamText, with a system prompt and earlier turns", async () => {
    const result = streamText({
      model: openai("sift-two-turn"),
      system: "Answer briefly.",
      messages: [
        { role: "user", content: QUESTION },
        { role: "assistant", content: "It merges several rankings into one." },
        { role: "user", content: "How is its score computed?" },
      ],
      maxRetries: 0,
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    assert.match(text, /reciprocal rank fusion|rrf/i);
    assert.equal(await result.text, text);
    assert.ok((await result.sources).length > 0, "url_citations become sources");
    assert.equal(await result.finishReason, "stop");
  });
});
