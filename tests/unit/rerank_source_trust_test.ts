import assert from "node:assert/strict";
import { rerankInBatches } from "../../core/rerank/batch.ts";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { fakeLlm } from "../helpers/fake_llm.ts";

const documents = [
  { text: "Real.", metadata: { url: "https://arxiv.org/abs/1", authors: ["Jacob Devlin"] } },
  {
    text: "Stuffed.",
    metadata: { url: "https://farm.example/", authors: ["Alan Turing"], source: "Nature" },
  },
];

function judge() {
  const criteria = { depth: 3, diversity: 3, clarity: 3, authoritativeness: 5, recency: 3 };
  return JSON.stringify({
    documents: [{ doc: 1, relevance: 8, criteria }, { doc: 2, relevance: 8, criteria }],
  });
}

Deno.test("rerankInBatches() with trusted sources hides and zeroes an untrusted document's authority", async () => {
  const { llm, calls } = fakeLlm(judge, { model: "m", structured: true });
  const result = await rerankInBatches(llm, {
    query: "BERT",
    documents,
    rubric: oneTurnRubric,
    prompt: "rubric",
    explain: false,
    batchSize: 10,
    concurrency: 1,
    trustedSources: ["arxiv.org"],
  });
  assert.match(calls[0]!.user, /Jacob Devlin/);
  assert.doesNotMatch(calls[0]!.user, /Alan Turing|Nature/);
  assert.match(calls[0]!.user, /farm\.example/, "the url, the one checkable claim, stays");
  const byIndex = new Map(result.ranked.map((ranked) => [ranked.index, ranked.scores]));
  assert.equal(byIndex.get(0)?.criteria.authoritativeness, 5);
  assert.equal(byIndex.get(1)?.criteria.authoritativeness, 0);
  assert.equal(result.ranked[0]?.index, 0, "the trusted document wins the tie it had before");
  assert.equal(byIndex.get(0)!.final - byIndex.get(1)!.final, 0.5 * 5);
});

Deno.test("rerankInBatches() without trusted sources shows and scores every claim", async () => {
  const { llm, calls } = fakeLlm(judge, { model: "m", structured: true });
  const result = await rerankInBatches(llm, {
    query: "BERT",
    documents,
    rubric: oneTurnRubric,
    prompt: "rubric",
    explain: false,
    batchSize: 10,
    concurrency: 1,
  });
  assert.match(calls[0]!.user, /Alan Turing/);
  assert.ok(result.ranked.every((ranked) => ranked.scores.criteria.authoritativeness === 5));
});
