import assert from "node:assert/strict";
import OpenAI from "openai";
import { UpstreamError } from "../../shared/errors.ts";
import { OpenAIEmbedder } from "./embeddings.ts";

const good = (count: number) =>
  JSON.stringify({
    object: "list",
    data: Array.from({ length: count }, (_, index) => ({
      object: "embedding",
      index,
      embedding: [index, 1],
    })),
    model: "m",
    usage: { prompt_tokens: 1, total_tokens: 1 },
  });

/** An embedder whose provider replies with `bodies` in turn (the last one repeats). */
function embedderReplying(bodies: { status?: number; text: string }[]) {
  const calls: string[] = [];
  const fetch = (_input: string | URL | Request, _init?: RequestInit) => {
    const body = bodies[Math.min(calls.length, bodies.length - 1)]!;
    calls.push(body.text);
    return Promise.resolve(
      new Response(body.text, {
        status: body.status ?? 200,
        headers: { "content-type": "application/json" },
      }),
    );
  };
  const client = new OpenAI({ apiKey: "k", baseURL: "http://x.invalid/v1", fetch, maxRetries: 0 });
  return { embedder: new OpenAIEmbedder({ client, model: "m" }), calls };
}

Deno.test("embed() retries a cut reply, an empty one and a wrong count, then succeeds", async () => {
  const cut = good(2).slice(0, 40);
  const { embedder, calls } = embedderReplying([{ text: cut }, { text: "" }, { text: good(2) }]);
  assert.deepEqual(await embedder.embed(["a", "b"]), [[0, 1], [1, 1]]);
  assert.equal(calls.length, 3);

  const short = embedderReplying([{ text: good(1) }, { text: good(2) }]);
  assert.equal((await short.embedder.embed(["a", "b"])).length, 2);
  assert.equal(short.calls.length, 2);
});

Deno.test("embed() gives up after three malformed replies with an UpstreamError", async () => {
  const { embedder, calls } = embedderReplying([{ text: '{"data": [{"index": 0}]}' }]);
  await assert.rejects(() => embedder.embed(["a"]), UpstreamError);
  assert.equal(calls.length, 3);
});

Deno.test("embed() does not retry a 400 itself", async () => {
  const { embedder, calls } = embedderReplying([
    { status: 400, text: '{"error":{"message":"bad dimensions","type":"invalid_request_error"}}' },
  ]);
  await assert.rejects(() => embedder.embed(["a"]), UpstreamError);
  assert.equal(calls.length, 1);
});
