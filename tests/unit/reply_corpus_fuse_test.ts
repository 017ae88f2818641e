import assert from "node:assert/strict";
import { readVariations } from "../../functions/fuse/read-variations.ts";
import { cleanVariations, generateQueryVariations } from "../../functions/fuse/variations.ts";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { fakeLlm } from "../helpers/fake_llm.ts";
import { queryVariationReplies, VARIATIONS_QUESTION } from "./reply-corpus/query-variations.ts";

Deno.test(`query variations: reads each of ${queryVariationReplies.length} realistic replies as a person would`, () => {
  assert.ok(queryVariationReplies.length >= 10);
  for (const { style, reply, expected } of queryVariationReplies) {
    assert.deepEqual(
      cleanVariations(readVariations(reply), VARIATIONS_QUESTION, 3),
      expected,
      `${style}: ${JSON.stringify(reply)}`,
    );
  }
});

Deno.test("generateQueryVariations() in JSON mode falls back to the reply's lines when it holds no JSON", async () => {
  const { llm } = fakeLlm(() => "Here are the queries:\n1. RRF formula\n2. rank fusion k", {
    model: "m",
    structured: true,
  });
  const cache = new ResilientCache(new MemoryCache(), { onError: () => {} });
  const variations = await generateQueryVariations({ llm, cache }, VARIATIONS_QUESTION, 2);
  assert.deepEqual(variations.queries, ["RRF formula", "rank fusion k"]);
  assert.equal(variations.degraded, false);
});
