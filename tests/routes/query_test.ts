import assert from "node:assert/strict";
import { CORPUS } from "./corpus.ts";
import { type Env, type ErrorBody, readEvents, type ServerSentEvent, testApp } from "./helpers.ts";

type Step = {
  name: string;
  started_ms: number;
  ended_ms: number;
  tokens_in: number;
  tokens_out: number;
  via: string;
};
type RetrievalEnd = {
  queries: { text: string; origin: string }[];
  results: { id: string; doc_id: string }[];
};
type AnswerEnd = { answer: string; answered: boolean; citations: { index: number; id?: string }[] };
type Usage = { steps: Step[]; total_ms: number };

async function appWithCorpus() {
  const setup = testApp();
  assert.equal((await setup.post("/v1/documents", { documents: CORPUS })).status, 201);
  return setup;
}

/** Asserts the event order: retrieval-end, answer-delta+, answer-end, usage, done. */
function assertQueryEventOrder(events: ServerSentEvent[]) {
  const names = events.map((event) => event.event);
  const deltas = names.filter((name) => name === "answer-delta").length;
  assert.ok(deltas >= 1, names.join(","));
  assert.deepEqual(names, [
    "retrieval-end",
    ...Array(deltas).fill("answer-delta"),
    "answer-end",
    "usage",
    "done",
  ]);
  const byName = (name: string) => events.find((event) => event.event === name)!.data;
  return {
    retrieval: byName("retrieval-end") as RetrievalEnd,
    answer: byName("answer-end") as AnswerEnd,
    usage: byName("usage") as Usage,
    text: events.filter((event) => event.event === "answer-delta")
      .map((event) => (event.data as { text: string }).text).join(""),
  };
}

function assertStepTimes(steps: Step[], totalMs: number) {
  for (const step of steps) {
    assert.ok(step.started_ms >= 0 && step.ended_ms >= step.started_ms, JSON.stringify(step));
    assert.ok(step.ended_ms <= totalMs, `${step.name} ends before the total`);
  }
}

Deno.test("POST /v1/query streams retrieval-end, answer deltas, answer-end, usage, done", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/query", { query: "What feeds the eruptions of a volcano?" });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const { retrieval, answer, usage, text } = assertQueryEventOrder(await readEvents(response));

  assert.deepEqual(retrieval.queries, [
    { text: "What feeds the eruptions of a volcano?", origin: "original" },
  ]);
  assert.equal(retrieval.results[0]!.doc_id, "volcano");
  assert.equal(answer.answer, text.trim());
  assert.equal(answer.answered, true);
  for (const citation of answer.citations) {
    assert.equal(citation.id, retrieval.results[citation.index - 1]!.id);
  }
  assert.ok(answer.citations.some((citation) => citation.id === "volcano#0"));

  assert.deepEqual(usage.steps.map((step) => step.name), ["retrieval", "answer"]);
  assertStepTimes(usage.steps, usage.total_ms);
  assert.ok(usage.steps[1]!.tokens_out > 0);
});

Deno.test("POST /v1/query with fusion: 2 runs one fuse step (variations + retrieval) over 3 queries", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/query", {
    query: "How does reciprocal rank fusion merge rankings?",
    pipeline: { retrieval: { fusion: 2, top_k: 3 } },
  });
  const { retrieval, usage } = assertQueryEventOrder(await readEvents(response));
  assert.equal(retrieval.queries.length, 3);
  assert.deepEqual(retrieval.queries.map((query) => query.origin), [
    "original",
    "variation",
    "variation",
  ]);
  assert.ok(retrieval.results.length <= 3);
  assert.equal(retrieval.results[0]!.doc_id, "rrf");
  assert.deepEqual(usage.steps.map((step) => [step.name, step.via]), [
    ["fuse", "in-process"],
    ["answer", "in-process"],
  ]);
  assertStepTimes(usage.steps, usage.total_ms);
  const [fuse] = usage.steps;
  assert.ok(fuse!.tokens_out > 0, "the fuse step reports the variations' tokens");
});

Deno.test("POST /v1/query on an empty index still ends with a no-answer", async () => {
  const { post } = testApp();
  const events = await readEvents(await post("/v1/query", { query: "What is a volcano?" }));
  const { retrieval, answer } = assertQueryEventOrder(events);
  assert.deepEqual(retrieval.results, []);
  assert.equal(answer.answered, false);
});

Deno.test("POST /v1/query answers 400 before the stream opens for an empty query", async () => {
  const { post } = testApp();
  for (const body of [{ query: "" }, { query: "   " }, {}]) {
    const response = await post("/v1/query", body);
    assert.equal(response.status, 400);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.match((await response.json() as ErrorBody).error.message, /^query: /);
  }
});

Deno.test("POST /v1/query answers 400 naming the pipeline field that is wrong", async () => {
  const { post } = testApp();
  const response = await post("/v1/query", {
    query: "x",
    pipeline: { retrieval: { mode: "fuzzy" } },
  });
  assert.equal(response.status, 400);
  assert.match((await response.json() as ErrorBody).error.message, /^pipeline\.retrieval\.mode: /);
});

Deno.test("POST /v1/query over the demo corpus answers a question about sift", async () => {
  const { post } = testApp({});
  const events = await readEvents(await post("/v1/query", { query: "What is RAG-Fusion?" }));
  const { retrieval, answer } = assertQueryEventOrder(events);
  assert.ok(retrieval.results.length > 0);
  assert.equal(answer.answered, true);
  assert.ok(answer.citations.length > 0);
});

Deno.test('POST /v1/query two-turn weighs criteria 0.5 unless the pipeline asks for weights: "rubric"', async () => {
  const { post } = await appWithCorpus();
  const query = "How do BM25 and dense retrieval differ?";
  const rubricOf = async (rerank: Record<string, unknown>) => {
    const events = await readEvents(await post("/v1/query", { query, pipeline: { rerank } }));
    const found = events.find((event) => event.event === "rubric-end");
    assert.ok(found, events.map((event) => event.event).join(","));
    const reranked = events.find((event) => event.event === "rerank-end")!.data as {
      results: { scores: { relevance: number; criteria: Record<string, number>; final: number } }[];
    };
    const { rubric } = found.data as { rubric: { criteria: { name: string; weight: number }[] } };
    // The rerank scored with the weights the rubric-end event shows.
    for (const { scores } of reranked.results) {
      const weighted = rubric.criteria.reduce(
        (sum, c) => sum + c.weight * scores.criteria[c.name]!,
        scores.relevance,
      );
      assert.ok(Math.abs(scores.final - weighted) < 1e-9);
    }
    return rubric.criteria.map((c) => c.weight);
  };
  const paper = await rubricOf({ strategy: "two-turn" });
  assert.ok(paper.length > 0 && paper.every((weight) => weight === 0.5), `${paper}`);
  const own = await rubricOf({ strategy: "two-turn", weights: "rubric" });
  assert.ok(own.some((weight) => weight !== 0.5), `${own}`);

  const refused = await post("/v1/query", {
    query,
    pipeline: { rerank: { strategy: "one-turn", weights: "rubric" } },
  });
  assert.equal(refused.status, 400);
  assert.match((await refused.json() as ErrorBody).error.message, /^pipeline\.rerank\.weights: /);
});

Deno.test("the usage event carries cost_usd per step and in total (MODEL_PRICES priced)", async () => {
  type Priced = {
    steps: { name: string; tokens_in: number; tokens_out: number; cost_usd: number | null }[];
  };
  const run = async (env: Env) => {
    const { post } = testApp(env);
    const events = await readEvents(await post("/v1/query", { query: "What is sift?" }));
    return events.find((event) => event.event === "usage")!.data as Priced & {
      cost_usd: number | null;
    };
  };
  const free = await run({ DEMO_CORPUS: "true" });
  assert.ok(free.steps.length >= 2);
  assert.ok(free.steps.every((step) => step.cost_usd === 0), "the offline model costs nothing");
  assert.equal(free.cost_usd, 0);

  const priced = await run({
    DEMO_CORPUS: "true",
    MODEL_PRICES: '{"sift-offline": {"input": 1, "output": 2}}',
  });
  for (const step of priced.steps) {
    if (step.name === "retrieval") {
      // The question's embedding, priced at the embedding model (the offline one is free).
      assert.ok(step.tokens_in > 0 && step.cost_usd === 0, JSON.stringify(step));
      continue;
    }
    assert.ok(
      Math.abs(step.cost_usd! - (step.tokens_in * 1 + step.tokens_out * 2) / 1e6) < 1e-8,
      JSON.stringify(step),
    );
  }
  const sum = priced.steps.reduce((total, step) => total + step.cost_usd!, 0);
  assert.ok(priced.cost_usd! > 0);
  assert.ok(Math.abs(priced.cost_usd! - sum) < 1e-8);
});
