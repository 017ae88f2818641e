/**
 * The official `openai` client, pointed at a real sift server (`main.ts` over
 * the demo corpus, offline model): what an app that speaks OpenAI's chat API
 * gets by changing its base URL.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startService } from "./service.ts";

const PRESETS = [
  "sift-none",
  "sift-one-turn",
  "sift-two-turn",
  "sift-relevance",
  "sift-fusion",
  "sift-fusion-two-turn",
];

const CONVERSATION: OpenAI.ChatCompletionMessageParam[] = [
  { role: "user", content: "What is reciprocal rank fusion?" },
  { role: "assistant", content: "It merges several rankings into one." },
  { role: "user", content: "How is its score computed?" },
];

type Annotation = {
  type: string;
  url_citation: { url: string; title: string; start_index: number; end_index: number };
};

/** Every annotation's [start_index, end_index) is a `[n]` marker of the content, and there is one. */
function assertAnnotationsCoverMarkers(content: string, annotations: readonly Annotation[]) {
  assert.ok(annotations.length > 0, `no annotations for: ${content}`);
  for (const { type, url_citation: citation } of annotations) {
    assert.equal(type, "url_citation");
    const marker = content.slice(citation.start_index, citation.end_index);
    assert.match(marker, /^\[\d+(?:\s*[,;]\s*\d+)*\]$/, JSON.stringify(citation));
    assert.ok(citation.url.length > 0 && citation.title.length > 0);
  }
}

Deno.test("the official openai client lists, streams, completes and gets a 404 from sift", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-openai-chat-" });
  try {
    await using sift = await startService({ SIFT_DATA_DIR: dataDir });
    const client = new OpenAI({
      baseURL: `${sift.url}/v1`,
      apiKey: "x",
      maxRetries: 0,
      timeout: 30_000,
    });

    await t.step("lists the presets", async () => {
      const ids = [];
      for await (const model of client.models.list()) ids.push(model.id);
      for (const preset of PRESETS) assert.ok(ids.includes(preset), `${preset} in ${ids}`);
      assert.equal((await client.models.retrieve("sift-two-turn")).owned_by, "sift");
    });

    let streamed = { content: "", annotations: [] as Annotation[] };
    await t.step("streams a two-turn answer whose annotations cover [n] markers", async () => {
      const stream = await client.chat.completions.create({
        model: "sift-two-turn",
        messages: CONVERSATION,
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.3,
      });
      let content = "";
      const annotations: Annotation[] = [];
      let finishReason: string | null = null;
      let usage: OpenAI.CompletionUsage | null | undefined;
      let role: string | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (chunk.usage) usage = chunk.usage;
        if (!choice) continue;
        role ??= choice.delta.role;
        content += choice.delta.content ?? "";
        const delta = choice.delta as { annotations?: Annotation[] };
        annotations.push(...(delta.annotations ?? []));
        finishReason = choice.finish_reason ?? finishReason;
      }
      assert.equal(role, "assistant");
      assert.equal(finishReason, "stop");
      assert.match(content, /reciprocal rank fusion/i);
      assertAnnotationsCoverMarkers(content, annotations);
      assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0);
      streamed = { content, annotations };
    });

    await t.step("gets the same content without streaming", async () => {
      const completion = await client.chat.completions.create({
        model: "sift-two-turn",
        messages: CONVERSATION,
      });
      const message = completion.choices[0]!.message;
      assert.equal(message.content, streamed.content);
      assert.deepEqual(message.annotations, streamed.annotations);
      assert.equal(completion.choices[0]!.finish_reason, "stop");
      assert.ok(completion.usage!.total_tokens > 0);
      const { sources } = completion as unknown as { sources: { index: number; text: string }[] };
      assert.ok(sources.length > 0 && sources.every((source) => source.text.length > 0));
    });

    await t.step("gets an OpenAI-shaped 404 for an unknown model", async () => {
      await assert.rejects(
        () =>
          client.chat.completions.create({
            model: "gpt-4o",
            messages: [{ role: "user", content: "What is reciprocal rank fusion?" }],
          }),
        (error) => {
          assert.ok(error instanceof OpenAI.NotFoundError, String(error));
          assert.equal(error.status, 404);
          assert.equal(error.code, "model_not_found");
          assert.equal(error.param, "model");
          return true;
        },
      );
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
