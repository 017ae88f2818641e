import assert from "node:assert/strict";
import OpenAI from "openai";
import { generateQueryVariations } from "../../functions/fuse/variations.ts";
import { judgeRetrieval } from "../../functions/judge/retrieval.ts";
import { correctionPrompt } from "../../prompts/correction.ts";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { completeText } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";

/*
 * Issue #42: a reasoning model's thinking is never read for a verdict,
 * whether it comes in `<think>` blocks or in the provider's separate
 * `reasoning_content` field; its tokens are counted; a reply that was only
 * thinking gets a correction that asks for the answer alone.
 */

type Message = { content: string; reasoning_content?: string };
type SentMessage = { role: string; content: string };

/** An `LlmContext` whose model answers with `reply(messages)`, reporting reasoning tokens apart. */
function reasoningLlm(reply: (messages: SentMessage[]) => Message) {
  const sent: SentMessage[][] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const body = await new Request(input, init).json();
    sent.push(body.messages);
    return Response.json({
      id: "x",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{
        index: 0,
        message: { role: "assistant", ...reply(body.messages) },
        finish_reason: "stop",
      }],
      // A provider that leaves reasoning out of completion_tokens but not out of the total.
      usage: {
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 62,
        completion_tokens_details: { reasoning_tokens: 50 },
      },
    });
  };
  const client = new OpenAI({
    apiKey: "x",
    baseURL: "http://fake.invalid/v1",
    fetch,
    maxRetries: 0,
  });
  const llm: LlmContext = { client, model: "r1", structuredOutputs: false };
  return { llm, sent };
}

const cache = () => new ResilientCache(new MemoryCache(), { onError: () => {} });
const QUERY = "What is the constant k in reciprocal rank fusion?";
const DOCUMENT = { text: "Reciprocal rank fusion uses a constant k, usually 60." };

Deno.test("completeText() sets reasoning_content aside and counts its tokens", async () => {
  const { llm } = reasoningLlm(() => ({ content: "Score: 1", reasoning_content: "Score: 2? No." }));
  const reply = await completeText(llm, {
    prompt: { id: "p", version: 1 },
    system: "s",
    user: "u",
  });
  assert.equal(reply.text, "Score: 1");
  assert.equal(reply.reasoning, "Score: 2? No.");
  assert.deepEqual(reply.usage, { tokens_in: 10, tokens_out: 52 });
});

Deno.test("judgeRetrieval() reads the final answer, with the thinking in <think> or in reasoning_content", async () => {
  const inline = reasoningLlm(() => ({
    content: "<think>\nScore: 2? The passage is about k, but…\n</think>\n\nScore: 1",
  }));
  const apart = reasoningLlm(() => ({
    content: "Score: 1",
    reasoning_content: "Score: 2? The passage is about k, but…",
  }));
  for (const { llm } of [inline, apart]) {
    const evaluation = await judgeRetrieval(
      { judge: llm, cache: cache() },
      { query: QUERY, documents: [DOCUMENT] },
    );
    assert.equal(evaluation.judgments[0]!.score, 1);
    assert.deepEqual(evaluation.usage, { tokens_in: 10, tokens_out: 52 });
  }
});

Deno.test("a reply that is only thinking gets a correction asking for the answer alone", async () => {
  const { llm, sent } = reasoningLlm((messages) =>
    messages.length > 2
      ? { content: "Score: 2" }
      : { content: "", reasoning_content: "The passage gives k = 60. Score: 2, I think" }
  );
  const evaluation = await judgeRetrieval(
    { judge: llm, cache: cache() },
    { query: QUERY, documents: [DOCUMENT] },
  );
  assert.equal(evaluation.judgments[0]!.score, 2);
  assert.equal(sent.length, 2);
  const [assistant, correction] = sent[1]!.slice(-2);
  assert.equal(assistant!.content, correctionPrompt.noAnswerTurn);
  assert.ok(correction!.content.startsWith(correctionPrompt.onlyReasoning));
  assert.ok(!JSON.stringify(sent[1]).includes("k = 60"), "the thinking is never sent back");
});

Deno.test("query variations come from the final answer, never from the drafts in the thinking", async () => {
  const { llm } = reasoningLlm(() => ({
    content:
      "<think>\n1. rrf\n2. fusion\n</think>\n\n1. reciprocal rank fusion formula\n2. RRF constant k",
  }));
  const variations = await generateQueryVariations({ llm, cache: cache() }, QUERY, 2);
  assert.deepEqual(variations.queries, ["reciprocal rank fusion formula", "RRF constant k"]);
});
