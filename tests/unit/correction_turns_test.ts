import assert from "node:assert/strict";
import { generateQueryVariations } from "../../functions/fuse/variations.ts";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { rerankInBatches } from "../../core/rerank/batch.ts";
import { generateRubric } from "../../core/rerank/generate-rubric.ts";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { fakeLlm } from "../helpers/fake_llm.ts";

/*
 * Every step that parses a reply sends one correction turn after an
 * unreadable reply (the reply, what was wrong, the format again), counts
 * both calls, and degrades with no score when the second is unreadable too.
 */

const cache = () => new ResilientCache(new MemoryCache(), { onError: () => {} });
const QUESTION = "How does reciprocal rank fusion combine rankings?";

Deno.test("variations: a refusal gets one correction; a compliant second reply is used", async () => {
  const { llm, calls } = fakeLlm(
    (call) =>
      call.messages.length > 2
        ? "1. rrf formula\n2. rank fusion constant k"
        : "I'm sorry, but I can't help with that.",
    { model: "m" },
  );
  const variations = await generateQueryVariations({ llm, cache: cache() }, QUESTION, 2);
  assert.deepEqual(variations.queries, ["rrf formula", "rank fusion constant k"]);
  assert.equal(variations.degraded, false);
  assert.equal(calls.length, 2);
  assert.equal(calls[1]!.messages.at(-2)!.content, "I'm sorry, but I can't help with that.");
  assert.match(calls[1]!.messages.at(-1)!.content, /any search query.*numbered/s);
  assert.deepEqual(variations.usage, { tokens_in: 20, tokens_out: 4 });
});

Deno.test("variations: refused twice is degraded and says so; the refusal is never a query", async () => {
  const { llm, calls } = fakeLlm(() => "I apologize, but I am unable to write those.", {
    model: "m",
  });
  const variations = await generateQueryVariations({ llm, cache: cache() }, QUESTION, 3);
  assert.deepEqual(variations.queries, []);
  assert.equal(variations.degraded, true);
  assert.equal(variations.refused, true);
  assert.equal(calls.length, 2);
});

Deno.test("rubric: a reply with no rubric gets one correction before the default stands in", async () => {
  const rubric = '{"criteria": [{"name": "Rigor", "definition": "Sound methods.", ' +
    '"high": "h", "low": "l", "weight": 0.6}], "relevance": {"definition": "On topic."}, ' +
    '"relevance_threshold": 3, "tie_break": "rigor"}';
  const { llm, calls } = fakeLlm(
    (call) => call.messages.length > 2 ? rubric : "Happy to help! What is the query about?",
    { model: "m" },
  );
  const generated = await generateRubric({ llm, cache: cache() }, QUESTION);
  assert.equal(generated.degraded, false);
  assert.deepEqual(generated.rubric.criteria.map((criterion) => criterion.name), ["rigor"]);
  assert.equal(calls.length, 2);
  assert.match(calls[1]!.messages.at(-1)!.content, /could not read a rubric/);

  const never = fakeLlm(() => "No.", { model: "m" });
  const fallback = await generateRubric({ llm: never.llm, cache: cache() }, QUESTION);
  assert.equal(fallback.degraded, true);
  assert.equal(never.calls.length, 2);
  assert.deepEqual(fallback.usage, { tokens_in: 20, tokens_out: 4 });
});

Deno.test("rerank batch: unread documents are named in the correction; still unread, no score", async () => {
  const documents = ["alpha", "beta", "gamma"].map((text) => ({ text }));
  const { llm, calls } = fakeLlm(
    (call) =>
      call.messages.length > 2
        ? "Doc: 2, Relevance: 6\nDoc: 3, Relevance: unsure"
        : "Doc: 1, Relevance: 8\nDoc: 2, Relevance: high\nDoc: 3, Relevance: meh",
    { model: "m" },
  );
  const result = await rerankInBatches(llm, {
    query: QUESTION,
    documents,
    rubric: { ...oneTurnRubric, criteria: [] },
    prompt: "relevance",
    explain: false,
    batchSize: 10,
    concurrency: 1,
  });
  assert.equal(calls.length, 2);
  assert.match(calls[1]!.messages.at(-1)!.content, /document\(s\) 2, 3/);
  assert.deepEqual(
    result.ranked.map((document) => [document.index, document.scores.relevance]),
    [[0, 8], [1, 6], [2, null]],
  );
  assert.equal(result.ranked.at(-1)!.degraded, true);
  assert.equal(result.usage.llm_calls, 2);
});
