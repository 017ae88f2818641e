/**
 * Strategy item (ITEM, paper 002) through every door, offline: `/v1/rerank`
 * for each variant in both output modes, `/v2/rerank` model `sift-item`,
 * `/v1/query`'s rerank step, the `sift-item` chat preset and the evaluation
 * variants.
 */
import assert from "node:assert/strict";
import { parseVariants } from "../../functions/evaluate/variants.ts";
import { type Env, type ErrorBody, errorMessageOf, readEvents, testApp } from "./helpers.ts";
import { ingestable, RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";

type Iteration = { answer: string; ranking?: number[]; utility: number[]; degraded?: true };
type ItemBody = {
  results: { index: number; id?: string; relevance_score: number; scores: null }[];
  discarded: unknown[];
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
  iterations: Iteration[];
  stop_reason: "max_iterations" | "unchanged" | "answer_converged";
};

const COUNT = RERANK_DOCUMENTS.length;
const JSON_MODE: Env = { DEMO_CORPUS: "false" };
const TEXT_MODE: Env = { DEMO_CORPUS: "false", LLM_STRUCTURED_OUTPUTS: "false" };

async function rerankItem(item: Record<string, unknown> | undefined, env = JSON_MODE, extra = {}) {
  const { post } = testApp(env);
  const response = await post("/v1/rerank", {
    query: RERANK_QUERY,
    documents: RERANK_DOCUMENTS,
    strategy: "item",
    ...(item ? { item } : {}),
    ...extra,
  });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as ItemBody;
}

function isPermutation(indices: readonly number[], count: number): boolean {
  return indices.length === count && [...indices].sort((a, b) => a - b).every((v, i) => v === i);
}

/** A valid ITEM reply: every document once, utility set first, iterations well formed. */
function assertValidItem(body: ItemBody, options: { m: number; ranked: boolean }) {
  const order = body.results.map((result) => result.index);
  assert.ok(isPermutation(order, COUNT), `a permutation: ${order}`);
  assert.ok(body.iterations.length >= 1 && body.iterations.length <= options.m);
  for (const iteration of body.iterations) {
    assert.ok(iteration.answer.length > 0, "a pseudo-answer each iteration");
    for (const index of iteration.utility) assert.ok(index >= 0 && index < COUNT);
    assert.equal(new Set(iteration.utility).size, iteration.utility.length);
    if (options.ranked) assert.ok(isPermutation(iteration.ranking!, COUNT), "a full ranking");
    else assert.equal(iteration.ranking, undefined);
  }
  const utility = body.iterations.at(-1)!.utility;
  assert.deepEqual(order.slice(0, utility.length), utility, "the utility set first, in its order");
  const scores = body.results.map((result) => result.relevance_score);
  scores.forEach((score, position) => {
    assert.ok(position < utility.length ? score > 0.5 && score <= 1 : score > 0 && score < 0.5);
    if (position > 0) assert.ok(score < scores[position - 1]!, "best first");
  });
  for (const result of body.results) {
    assert.equal(result.scores, null);
    assert.equal(result.id, RERANK_DOCUMENTS[result.index]!.id);
  }
  assert.deepEqual(body.discarded, []);
  assert.equal(body.degraded, false);
  assert.ok(body.usage.tokens_in > 0 && body.usage.tokens_out > 0);
  if (body.stop_reason === "unchanged" && body.iterations.length > 1) {
    const [before, last] = body.iterations.slice(-2).map((i) => new Set(i.utility));
    assert.deepEqual(before, last, "unchanged means the same set as the iteration before");
  }
}

/** Calls per iteration: answer + ranking + set (AR_s), answer + one (A_s, A_r), answer + N. */
const VARIANTS = [
  { item: undefined, ranked: true, calls: 3 },
  { item: { variant: "AR_s" }, ranked: true, calls: 3 },
  { item: { variant: "A_s" }, ranked: false, calls: 2 },
  { item: { variant: "A_s", judgment: "pointwise" }, ranked: false, calls: 1 + COUNT },
  { item: { variant: "A_s", answer: "implicit" }, ranked: false, calls: 2 },
  { item: { variant: "A_r" }, ranked: true, calls: 2 },
];

for (const [mode, env] of [["JSON", JSON_MODE], ["text", TEXT_MODE]] as const) {
  for (const { item, ranked, calls } of VARIANTS) {
    Deno.test(`/v1/rerank item ${JSON.stringify(item ?? "defaults")} (${mode}) ranks every document with its iterations`, async () => {
      const body = await rerankItem(item, env);
      assertValidItem(body, { m: 3, ranked });
      assert.equal(body.usage.llm_calls, calls * body.iterations.length, "every call counted");
      assert.equal(body.usage.cached, false);
    });
  }
}

Deno.test("/v1/rerank item stops at m and says max_iterations", async () => {
  for (const variant of ["AR_s", "A_s", "A_r"]) {
    const body = await rerankItem({ variant, m: 1 });
    assert.equal(body.iterations.length, 1, variant);
    assert.equal(body.stop_reason, "max_iterations", variant);
    // The first set differs from U_0 (the top five retrieved), so only m stopped it.
    assert.notDeepEqual(new Set(body.iterations[0]!.utility), new Set([0, 1, 2, 3, 4]), variant);
  }
});

Deno.test("/v1/rerank item stops when the utility set is unchanged, before m, and says so", async () => {
  const body = await rerankItem({ variant: "A_s", m: 5 });
  assert.equal(body.stop_reason, "unchanged");
  assert.equal(body.iterations.length, 2);
  const [first, second] = body.iterations;
  assert.deepEqual(new Set(first!.utility), new Set(second!.utility));
  assertValidItem(body, { m: 5, ranked: false });
  // On-topic documents in, the off-topic ones (cats, sourdough, tides...) out.
  const ids = second!.utility.map((index) => RERANK_DOCUMENTS[index]!.id);
  assert.ok(ids.includes("bm25-paper") && ids.includes("dense-survey"), ids.join());
  assert.ok(!ids.includes("cats") && !ids.includes("sourdough"), ids.join());
});

Deno.test("/v1/rerank item keeps top_n, and a repeated request is served from the cache", async () => {
  const { post } = testApp();
  const request = { query: RERANK_QUERY, documents: RERANK_DOCUMENTS, strategy: "item", top_n: 2 };
  const first = await (await post("/v1/rerank", request)).json() as ItemBody;
  const again = await (await post("/v1/rerank", request)).json() as ItemBody;
  assert.equal(first.results.length, 2);
  assert.deepEqual(again.results, first.results);
  assert.deepEqual(again.iterations, first.iterations);
  assert.deepEqual(again.usage, { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: true });
});

async function expectBadRequest(path: string, body: Record<string, unknown>): Promise<string> {
  const { post } = testApp();
  const response = await post(path, body);
  assert.equal(response.status, 400, await response.clone().text());
  return errorMessageOf(await response.json());
}

Deno.test("/v1/rerank item answers 400 naming the field for options it cannot honour", async () => {
  const base = { query: RERANK_QUERY, documents: RERANK_DOCUMENTS.slice(0, 3), strategy: "item" };
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ item: { variant: "AR_s", judgment: "pointwise" } }, /^item\.judgment: variant AR_s/],
    [{ item: { judgment: "pointwise" } }, /^item\.judgment: variant AR_s judges listwise only/],
    [{ item: { variant: "A_r", judgment: "pointwise" } }, /^item\.judgment: variant A_r/],
    [{ item: { m: 6 } }, /^item\.m: must be at most 5/],
    [{ item: { m: 0 } }, /^item\.m: must be at least 1/],
    [{ item: { variant: "R_s" } }, /^item\.variant: must be one of A_s, AR_s, A_r, AR_r/],
    [{ item: { answer_stop: 0 } }, /^item\.answer_stop: must be in \(0, 1\]/],
    [{ item: { variant: "A_s" }, strategy: "one-turn" }, /^item: only strategy item/],
    [{ weights: 1 }, /^weights: strategy item/],
    [{ documents: Array.from({ length: 101 }, (_, i) => `doc ${i}`) }, /^documents: .*at most 100/],
  ];
  for (const [change, message] of cases) {
    assert.match(await expectBadRequest("/v1/rerank", { ...base, ...change }), message);
  }
});

Deno.test("/v2/rerank sift-item: the /v1 order, scores in (0, 1] with the utility set above 0.5", async () => {
  const { post } = testApp();
  const documents = RERANK_DOCUMENTS.map((document) => document.text);
  const response = await post("/v2/rerank", { model: "sift-item", query: RERANK_QUERY, documents });
  assert.equal(response.status, 200, await response.clone().text());
  const body = await response.json() as { results: { index: number; relevance_score: number }[] };
  const native = await rerankItem(undefined);
  assert.deepEqual(
    body.results.map((result) => result.index),
    native.results.map((result) => result.index),
  );
  const useful = native.iterations.at(-1)!.utility.length;
  assert.ok(useful > 0);
  body.results.forEach((result, position) => {
    assert.ok(result.relevance_score > 0 && result.relevance_score <= 1);
    assert.equal(result.relevance_score > 0.5, position < useful);
  });
  assert.equal(body.results[0]!.relevance_score, 1);
  const unknown = await expectBadRequest("/v2/rerank", {
    model: "nope",
    query: "q",
    documents: ["a"],
  });
  assert.match(unknown, /sift-item/);
});

async function appWithRerankCorpus() {
  const setup = testApp();
  const ingest = await setup.post("/v1/documents", {
    documents: RERANK_DOCUMENTS.map(ingestable),
  });
  assert.equal(ingest.status, 201, await ingest.clone().text());
  return setup;
}

Deno.test("/v1/query with rerank strategy item: the utility set feeds the answer, the pseudo-answers stay in rerank-end", async () => {
  const { post } = await appWithRerankCorpus();
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "item", item: { variant: "A_s", m: 2 } } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const data = (name: string) => events.find((event) => event.event === name)?.data;
  const reranked = data("rerank-end") as {
    results: { index: number; doc_id: string }[];
    iterations: Iteration[];
    stop_reason: string;
  };
  assert.ok(reranked.iterations.length >= 1 && reranked.iterations.length <= 2);
  assert.ok(["max_iterations", "unchanged"].includes(reranked.stop_reason));
  assert.equal(reranked.results.length, 3, "top_n 3");
  const answer = data("answer-end") as { answer: string; citations: { id?: string }[] };
  for (const iteration of reranked.iterations) assert.notEqual(answer.answer, iteration.answer);
  assert.match(answer.answer, /\[\d\]/, "the grounded answer, with citations");
  const kept = new Set(reranked.results.map((result) => result.doc_id));
  for (const citation of answer.citations) assert.ok(kept.has(citation.id!.split("#")[0]!));
  const usage = data("usage") as { steps: { name: string; tokens_in: number }[] };
  assert.ok(usage.steps.find((step) => step.name === "rerank")!.tokens_in > 0);
});

Deno.test("/v1/query refuses item options without strategy item, naming the field", async () => {
  const { post } = testApp();
  const response = await post("/v1/query", {
    query: "q",
    pipeline: { rerank: { strategy: "one-turn", item: { variant: "A_s" } } },
  });
  assert.equal(response.status, 400);
  assert.match((await response.json() as ErrorBody).error.message, /^pipeline\.rerank\.item:/);
});

Deno.test("the sift-item chat preset answers through the item rerank step", async () => {
  const { app, env, post } = await appWithRerankCorpus();
  const models = await (await app.request("/v1/models", {}, env)).json() as {
    data: { id: string }[];
  };
  assert.ok(models.data.some((model) => model.id === "sift-item"));
  const response = await post("/v1/chat/completions", {
    model: "sift-item",
    messages: [{ role: "user", content: RERANK_QUERY }],
  });
  assert.equal(response.status, 200, await response.clone().text());
  const completion = await response.json() as {
    choices: { message: { content: string } }[];
    sift: { steps: { name: string }[] };
  };
  assert.ok(completion.choices[0]!.message.content.length > 0);
  assert.ok(completion.sift.steps.some((step) => step.name === "rerank"));
});

Deno.test("evaluation variants item and item+fusion rerank with strategy item", () => {
  const [plain, fused] = parseVariants("item,item+fusion", "ns");
  assert.equal(plain!.pipeline.rerank?.strategy, "item");
  assert.equal(plain!.pipeline.retrieval.fusion, 0);
  assert.equal(fused!.pipeline.rerank?.strategy, "item");
  assert.equal(fused!.pipeline.retrieval.fusion, 4);
});
