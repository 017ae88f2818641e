import assert from "node:assert/strict";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { rubricFor } from "../../providers/offline/tasks/rubric.ts";
import {
  type Env,
  type ErrorBody,
  errorMessageOf,
  readEvents,
  testApp,
  withoutErrorLogs,
} from "./helpers.ts";
import { ingestable, RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";

type Scores = { relevance: number | null; criteria: Record<string, number>; final: number };
type Result = {
  index: number;
  id?: string;
  relevance_score: number | null;
  scores: Scores | null;
  reason?: string;
  degraded?: true;
};
type Rubric = {
  criteria: { name: string; weight: number }[];
  relevance: { definition: string };
  relevance_threshold: number;
  tie_break: string;
};
type RerankBody = {
  results: Result[];
  discarded: { index: number; reason: string }[];
  rubric?: Rubric;
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
};
type CohereBody = {
  id: string;
  results: { index: number; relevance_score: number }[];
  meta: Record<string, unknown>;
};

const ONE_TURN_KEYS = oneTurnRubric.criteria.map((criterion) => criterion.name);
const LLM_STRATEGIES = ["one-turn", "two-turn", "relevance", "two-turn-relevance"] as const;
const COHERE_MODELS = [
  "sift-one-turn",
  "sift-two-turn",
  "sift-relevance",
  "sift-two-turn-relevance",
] as const;
const TEXT_MODE: Env = { DEMO_CORPUS: "false", LLM_STRUCTURED_OUTPUTS: "false" };

async function rerank(body: Record<string, unknown>, env?: Env) {
  const { post } = testApp(env);
  const response = await post("/v1/rerank", {
    query: RERANK_QUERY,
    documents: RERANK_DOCUMENTS,
    ...body,
  });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as RerankBody;
}

async function expectBadRequest(path: string, body: unknown): Promise<string> {
  const { post } = testApp();
  const response = await post(path, body);
  assert.equal(response.status, 400);
  const reply = await response.json();
  // /v2/rerank answers in Cohere's shape, `{message}`.
  if (path !== "/v2/rerank") assert.equal((reply as ErrorBody).error.type, "invalid_request");
  return errorMessageOf(reply);
}

function near(actual: number, expected: number, label: string) {
  assert.ok(Math.abs(actual - expected) <= 1e-9, `${label}: expected ${expected}, got ${actual}`);
}

/** Indices in range and used once across results and discarded; results best first. */
function assertWellFormed(body: RerankBody, documentCount: number) {
  const indices = [...body.results, ...body.discarded].map((entry) => entry.index);
  for (const index of indices) {
    assert.ok(Number.isInteger(index) && index >= 0 && index < documentCount, `index ${index}`);
  }
  assert.equal(new Set(indices).size, indices.length, `duplicate index in ${indices}`);
  const finals = body.results.filter((r) => !r.degraded).map((r) => r.relevance_score!);
  assert.deepEqual(finals, [...finals].sort((a, b) => b - a), "results are sorted best first");
  for (const result of body.results) {
    if (result.degraded) continue;
    assert.equal(result.relevance_score, result.scores?.final, "relevance_score is scores.final");
  }
  for (const entry of body.discarded) assert.ok(entry.reason.length > 0, "a discard says why");
}

/** final = relevance + Σ weight · criterion, for the weights of `rubric`. */
function assertFinalFromParts(result: Result, weights: Record<string, number>) {
  const scores = result.scores!;
  assert.notEqual(scores.relevance, null, `document ${result.index} has its breakdown`);
  assert.deepEqual(Object.keys(scores.criteria).sort(), Object.keys(weights).sort());
  const weighted = Object.entries(weights).reduce(
    (sum, [name, weight]) => sum + weight * scores.criteria[name]!,
    0,
  );
  near(scores.final, scores.relevance! + weighted, `final of document ${result.index}`);
}

const weightsOf = (rubric: Rubric) =>
  Object.fromEntries(rubric.criteria.map((criterion) => [criterion.name, criterion.weight]));

Deno.test("POST /v1/rerank one-turn scores 12 documents in 2 batches with final = relevance + 0.5·Σ criteria", async () => {
  const body = await rerank({ strategy: "one-turn" });
  assertWellFormed(body, RERANK_DOCUMENTS.length);
  assert.equal(body.degraded, false);
  assert.equal(body.usage.llm_calls, 2);
  assert.equal(body.usage.cached, false);
  assert.ok(body.usage.tokens_in > 0 && body.usage.tokens_out > 0);
  assert.equal(body.results.length + body.discarded.length, RERANK_DOCUMENTS.length);
  assert.ok(body.results.length >= 3, "the on-topic documents are kept");
  assert.ok(body.discarded.length >= 3, "the off-topic documents are discarded");

  const half = Object.fromEntries(ONE_TURN_KEYS.map((name) => [name, 0.5]));
  for (const result of body.results) {
    assertFinalFromParts(result, half);
    assert.ok(result.scores!.relevance! >= 3, `kept relevance ${result.scores!.relevance}`);
    assert.equal(result.id, RERANK_DOCUMENTS[result.index]!.id);
    assert.equal("reason" in result, false, "no reason unless explain");
  }
  for (const entry of body.discarded) assert.match(entry.reason, /below the threshold 3/);
  const kept = new Set(body.results.map((r) => RERANK_DOCUMENTS[r.index]!.id));
  for (const offTopic of ["cats", "sourdough", "tides", "volcano", "chess", "gardening"]) {
    assert.equal(kept.has(offTopic), false, `${offTopic} is not kept`);
  }
  assert.deepEqual(body.rubric?.criteria.map((c) => c.name), ONE_TURN_KEYS);
});

Deno.test("POST /v1/rerank top_n keeps the best n of the full ranking", async () => {
  const full = await rerank({ strategy: "one-turn" });
  const top = await rerank({ strategy: "one-turn", top_n: 2 });
  assert.deepEqual(top.results, full.results.slice(0, 2));
  assert.deepEqual(top.discarded, full.discarded);
});

Deno.test("POST /v1/rerank weights change the final score: per criterion, or one for all", async () => {
  const recencyHeavy = await rerank({ strategy: "one-turn", weights: { recency: 2 } });
  assert.equal(recencyHeavy.rubric?.criteria.find((c) => c.name === "recency")?.weight, 2);
  for (const result of recencyHeavy.results) {
    assertFinalFromParts(result, { ...weightsOf(oneTurnRubric), recency: 2 });
  }
  const relevanceOnly = await rerank({ strategy: "one-turn", weights: 0 });
  for (const result of relevanceOnly.results) {
    assert.equal(result.scores!.final, result.scores!.relevance);
  }
  const defaults = await rerank({ strategy: "one-turn" });
  const finalOf = (body: RerankBody, index: number) =>
    body.results.find((r) => r.index === index)?.scores?.final;
  const changed = defaults.results.some((r) =>
    finalOf(recencyHeavy, r.index) !== r.scores!.final &&
    finalOf(relevanceOnly, r.index) !== r.scores!.final
  );
  assert.ok(changed, "some final score moves with the weights");
});

Deno.test("POST /v1/rerank warns about a weight for a criterion the rubric does not have", async () => {
  const body = await rerank({ strategy: "one-turn", weights: { flavour: 1 } });
  assert.ok(body.warnings?.some((warning) => warning.includes("weights.flavour")));
});

Deno.test("POST /v1/rerank explain: true gives each kept document a one-line reason", async () => {
  for (const strategy of ["one-turn", "relevance"]) {
    const body = await rerank({ strategy, explain: true });
    assert.ok(body.results.length > 0);
    for (const result of body.results) {
      assert.equal(typeof result.reason, "string", `${strategy}: reason of ${result.index}`);
      assert.ok(result.reason!.length > 0 && !result.reason!.includes("\n"));
    }
  }
});

Deno.test("POST /v1/rerank two-turn generates a rubric and weighs every criterion 0.5, as REBEL does", async () => {
  const body = await rerank({ strategy: "two-turn" });
  assertWellFormed(body, RERANK_DOCUMENTS.length);
  assert.equal(body.usage.llm_calls, 3, "one rubric call and two batches");
  const rubric = body.rubric!;
  assert.ok(rubric.criteria.length >= 1 && rubric.criteria.length <= 8);
  assert.ok(rubric.criteria.some((c) => c.name === "comparative_coverage"), "a comparison query");
  assert.deepEqual(rubric.criteria.map((c) => c.weight), rubric.criteria.map(() => 0.5));
  assert.ok(body.results.length > 0);
  for (const result of body.results) {
    assertFinalFromParts(result, weightsOf(rubric));
    assert.ok(result.scores!.relevance! >= rubric.relevance_threshold);
  }
});

Deno.test('POST /v1/rerank two-turn with weights: "rubric" scores with the weights the rubric model chose', async () => {
  const { post } = testApp();
  const ask = async (weights?: unknown) => {
    const response = await post("/v1/rerank", {
      query: RERANK_QUERY,
      documents: RERANK_DOCUMENTS,
      strategy: "two-turn",
      ...(weights === undefined ? {} : { weights }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return await response.json() as RerankBody;
  };
  const paper = await ask();
  const own = await ask("rubric");
  assert.equal(own.usage.llm_calls, 2, "the rubric comes from the cache the first call filled");
  assert.deepEqual(
    own.rubric!.criteria.map((c) => c.name),
    paper.rubric!.criteria.map((c) => c.name),
  );
  // Exactly what the offline meta prompt wrote for this query.
  const written = rubricFor(RERANK_QUERY).criteria.map((c) => [c.name, c.weight]);
  assert.deepEqual(own.rubric!.criteria.map((c) => [c.name, c.weight]), written);
  assert.ok(own.rubric!.criteria.some((c) => c.weight !== 0.5), "the model's weights, not 0.5");
  for (const result of own.results) assertFinalFromParts(result, weightsOf(own.rubric!));
  // Numbers and objects still override whichever weights the rubric has.
  const flat = await ask(1);
  assert.ok(flat.rubric!.criteria.every((c) => c.weight === 1));
  const one = await ask({ comparative_coverage: 2 });
  assert.equal(one.rubric!.criteria.find((c) => c.name === "comparative_coverage")!.weight, 2);
  assert.ok(
    one.rubric!.criteria.filter((c) => c.name !== "comparative_coverage")
      .every((c) => c.weight === 0.5),
  );
});

Deno.test('POST /v1/rerank answers 400 for weights: "rubric" without a generated rubric, or another word', async () => {
  for (const strategy of ["one-turn", "relevance", "none"]) {
    const message = await expectBadRequest("/v1/rerank", {
      query: RERANK_QUERY,
      documents: RERANK_DOCUMENTS,
      strategy,
      weights: "rubric",
    });
    assert.match(message, /^weights: "rubric" .*two-turn/, strategy);
  }
  const message = await expectBadRequest("/v1/rerank", {
    query: RERANK_QUERY,
    documents: RERANK_DOCUMENTS,
    strategy: "two-turn",
    weights: "model",
  });
  assert.match(message, /^weights: /);
});

Deno.test("POST /v1/rerank two-turn with a given rubric uses it as is, without a rubric call", async () => {
  const rubric = {
    criteria: [
      { name: "Recency", definition: "Recent work.", weight: 2 },
      { name: "depth", definition: "Thorough.", weight: 1 },
    ],
    relevance: { definition: "Explains how BM25 or dense retrieval rank documents." },
    relevance_threshold: 5,
    tie_break: "recency",
  };
  const body = await rerank({ strategy: "two-turn", rubric });
  assert.equal(body.usage.llm_calls, 2);
  assert.deepEqual(body.rubric?.criteria.map((c) => [c.name, c.weight]), [
    ["recency", 2],
    ["depth", 1],
  ]);
  for (const result of body.results) {
    assertFinalFromParts(result, { recency: 2, depth: 1 });
    assert.ok(result.scores!.relevance! >= 5);
  }
});

Deno.test("POST /v1/rerank relevance scores relevance only, with no rubric in the reply", async () => {
  const body = await rerank({ strategy: "relevance" });
  assertWellFormed(body, RERANK_DOCUMENTS.length);
  assert.equal(body.rubric, undefined);
  assert.equal(body.usage.llm_calls, 2);
  assert.ok(body.results.length > 0);
  for (const result of body.results) {
    assert.deepEqual(result.scores!.criteria, {});
    assert.equal(result.scores!.final, result.scores!.relevance);
    assert.ok(result.scores!.relevance! >= 1 && result.scores!.relevance! <= 10);
  }
  assert.equal(RERANK_DOCUMENTS[body.results[0]!.index]!.id, "bm25-paper");
});

Deno.test("POST /v1/rerank two-turn-relevance generates a rubric with no criteria", async () => {
  const body = await rerank({ strategy: "two-turn-relevance" });
  assertWellFormed(body, RERANK_DOCUMENTS.length);
  assert.deepEqual(body.rubric?.criteria, []);
  assert.ok(body.rubric!.relevance.definition.length > 0);
  assert.equal(body.usage.llm_calls, 3);
  for (const result of body.results) {
    assert.equal(result.scores!.final, result.scores!.relevance);
    assert.ok(result.scores!.relevance! >= body.rubric!.relevance_threshold);
  }
});

Deno.test("POST /v1/rerank none keeps the input order without calling the model", async () => {
  const body = await rerank({ strategy: "none", top_n: 5 });
  assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2, 3, 4]);
  assert.deepEqual(body.results.map((r) => r.id), RERANK_DOCUMENTS.slice(0, 5).map((d) => d.id));
  for (const result of body.results) {
    assert.equal(result.relevance_score, null);
    assert.equal(result.scores, null);
  }
  assert.equal(body.usage.llm_calls, 0);
  assert.equal(body.degraded, false);
});

Deno.test("POST /v1/rerank takes documents as plain strings and answers without ids", async () => {
  const texts = RERANK_DOCUMENTS.slice(0, 5).map((document) => document.text);
  const body = await rerank({ strategy: "one-turn", documents: texts });
  assertWellFormed(body, texts.length);
  assert.equal(body.usage.llm_calls, 1);
  assert.ok(body.results.length > 0);
  for (const result of body.results) assert.equal("id" in result, false);
});

Deno.test("POST /v1/rerank answers a second identical request from the cache", async () => {
  const { post } = testApp();
  const request = { query: RERANK_QUERY, documents: RERANK_DOCUMENTS, strategy: "one-turn" };
  const first = await (await post("/v1/rerank", request)).json() as RerankBody;
  const second = await (await post("/v1/rerank", request)).json() as RerankBody;
  assert.equal(first.usage.cached, false);
  assert.equal(second.usage.cached, true);
  assert.equal(second.usage.llm_calls, 0);
  assert.deepEqual(second.results, first.results);
  assert.deepEqual(second.discarded, first.discarded);

  const changed = await (await post("/v1/rerank", { ...request, strategy: "relevance" })).json();
  assert.equal((changed as RerankBody).usage.cached, false, "another strategy is another entry");
});

Deno.test("POST /v1/rerank rejects a bad strategy with a 400 listing the valid ones", async () => {
  const message = await expectBadRequest("/v1/rerank", {
    query: RERANK_QUERY,
    documents: ["BM25 ranks documents."],
    strategy: "best",
  });
  assert.match(message, /^strategy: /);
  for (const strategy of [...LLM_STRATEGIES, "none"]) assert.ok(message.includes(strategy));
});

Deno.test("POST /v1/rerank rejects bad fields with a 400 naming them", async () => {
  const base = { query: RERANK_QUERY, documents: ["BM25 ranks documents."] };
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...base, documents: [] }, /^documents: must hold at least one document/],
    [{ ...base, documents: [""] }, /^documents\.0/],
    [{ ...base, query: " " }, /^query: must not be empty/],
    [{ ...base, weights: 5 }, /^weights: /],
    [{ ...base, weights: { recency: 5 } }, /^weights/],
    [{ ...base, top_n: 0 }, /^top_n: /],
    [{ ...base, explain: "yes" }, /^explain: /],
    [{
      ...base,
      strategy: "two-turn",
      rubric: {
        criteria: [{ name: "depth", definition: "Thorough.", weight: 3 }],
        relevance: { definition: "On topic." },
      },
    }, /^rubric\.criteria\.0\.weight: must be in \[0, 2\]/],
  ];
  for (const [body, expected] of cases) {
    assert.match(await expectBadRequest("/v1/rerank", body), expected, JSON.stringify(body));
  }
});

Deno.test("POST /v1/rerank rejects a rubric with strategy one-turn", async () => {
  const message = await expectBadRequest("/v1/rerank", {
    query: RERANK_QUERY,
    documents: ["BM25 ranks documents."],
    strategy: "one-turn",
    rubric: { criteria: [], relevance: { definition: "On topic." } },
  });
  assert.match(message, /^rubric: .*two-turn/);
});

Deno.test({
  name: "POST /v1/rerank rejects a given rubric whose criteria repeat a name",
  async fn() {
    const message = await expectBadRequest("/v1/rerank", {
      query: RERANK_QUERY,
      documents: ["BM25 ranks documents."],
      strategy: "two-turn",
      rubric: {
        criteria: [
          { name: "Depth", definition: "Thorough.", weight: 1 },
          { name: "depth", definition: "Deep.", weight: 2 },
        ],
        relevance: { definition: "On topic." },
      },
    });
    assert.match(message, /^rubric\.criteria\.1\.name: /);
  },
});

Deno.test("POST /v1/rerank in text mode (LLM_STRUCTURED_OUTPUTS=false) works for every strategy", async () => {
  for (const strategy of LLM_STRATEGIES) {
    const body = await rerank({ strategy }, TEXT_MODE);
    assertWellFormed(body, RERANK_DOCUMENTS.length);
    assert.equal(body.degraded, false, strategy);
    assert.ok(body.results.length > 0, strategy);
    for (const result of body.results) {
      if (strategy === "one-turn" || strategy === "two-turn") {
        assertFinalFromParts(result, weightsOf(body.rubric!));
      } else {
        assert.equal(result.scores!.final, result.scores!.relevance);
      }
    }
  }
});

Deno.test("POST /v1/rerank text mode ranks like structured mode on the offline model", async () => {
  for (const strategy of ["one-turn", "relevance"]) {
    const structured = await rerank({ strategy });
    const text = await rerank({ strategy }, TEXT_MODE);
    assert.deepEqual(
      text.results.map((r) => [r.index, r.relevance_score]),
      structured.results.map((r) => [r.index, r.relevance_score]),
      strategy,
    );
  }
});

Deno.test("POST /v1/rerank with malformed model output answers 200: its readable lines rank, the rest is discarded or degraded", async () => {
  const env = { DEMO_CORPUS: "false", OFFLINE_MODEL_FAULTS: "malformed=1" };
  for (const strategy of LLM_STRATEGIES) {
    const body = await rerank({ strategy }, env);
    if (strategy !== "relevance") {
      // REBEL's list names the documents it ranks: the sloppy reply's readable lines rank (its
      // lines for documents 0 and 99 name none of the batch), and every other document is
      // discarded as not ranked, said per document, none scored on a guess.
      assert.ok(body.results.length >= 1 && body.results.length <= 2, strategy);
      assert.equal(body.results.length + body.discarded.length, RERANK_DOCUMENTS.length);
      for (const discarded of body.discarded) {
        assert.equal(discarded.reason, "not ranked by the model", strategy);
      }
      continue;
    }
    assert.equal(body.degraded, true, strategy);
    assert.deepEqual(
      body.results.map((r) => r.index),
      RERANK_DOCUMENTS.map((_, index) => index),
      strategy,
    );
    for (const result of body.results) {
      assert.equal(result.degraded, true);
      assert.equal(result.relevance_score, null);
    }
    assert.ok(body.warnings?.some((warning) => /nothing usable/.test(warning)), strategy);
  }
});

Deno.test("POST /v1/rerank with a failing model (HTTP 500) answers 200, degraded, not 500", async () => {
  const env = { DEMO_CORPUS: "false", OFFLINE_MODEL_FAULTS: "http500=1" };
  // In parallel: the SDK retries each 500 twice with backoff before the batch degrades.
  const bodies = await Promise.all(
    ["one-turn", "relevance"].map((strategy) =>
      rerank({ strategy, documents: RERANK_DOCUMENTS.slice(0, 4) }, env)
    ),
  );
  for (const body of bodies) {
    assert.equal(body.degraded, true);
    assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2, 3]);
    assert.ok(body.warnings?.some((warning) => /model call failed/.test(warning)));
  }
});

Deno.test({
  name: "POST /v1/rerank two-turn with a failing model (HTTP 500) degrades instead of failing",
  async fn() {
    const env = { DEMO_CORPUS: "false", OFFLINE_MODEL_FAULTS: "http500=1" };
    await withoutErrorLogs(async () => {
      const bodies = await Promise.all(
        ["two-turn", "two-turn-relevance"].map((strategy) =>
          rerank({ strategy, documents: RERANK_DOCUMENTS.slice(0, 4) }, env)
        ),
      );
      for (const body of bodies) {
        assert.equal(body.degraded, true);
        assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2, 3]);
      }
    });
  },
});

// ---- /v2/rerank (Cohere v2) ------------------------------------------------------------------

Deno.test("POST /v2/rerank answers each sift-* model in Cohere's shape, best first, scores in [0, 1]", async () => {
  const { post } = testApp();
  const documents = RERANK_DOCUMENTS.map((document) => document.text);
  for (const model of COHERE_MODELS) {
    const response = await post("/v2/rerank", { model, query: RERANK_QUERY, documents, top_n: 4 });
    assert.equal(response.status, 200, model);
    const body = await response.json() as CohereBody;
    assert.deepEqual(Object.keys(body).sort(), ["discarded", "id", "meta", "results"], model);
    assert.equal(typeof body.id, "string");
    assert.equal(body.results.length, 4, model);
    const indices = body.results.map((result) => result.index);
    assert.equal(new Set(indices).size, indices.length, model);
    for (const result of body.results) {
      assert.deepEqual(Object.keys(result).sort(), ["index", "relevance_score"]);
      assert.ok(result.index >= 0 && result.index < documents.length);
      assert.ok(result.relevance_score >= 0 && result.relevance_score <= 1, model);
    }
    const scores = body.results.map((result) => result.relevance_score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), model);
    assert.deepEqual(body.meta.api_version, { version: "2" });
    assert.equal(RERANK_DOCUMENTS[indices[0]!]!.id, "bm25-paper", model);
  }
});

Deno.test("POST /v2/rerank takes Cohere's {text} documents", async () => {
  const { post } = testApp();
  const response = await post("/v2/rerank", {
    model: "sift-relevance",
    query: RERANK_QUERY,
    documents: RERANK_DOCUMENTS.slice(0, 3).map((document) => ({ text: document.text })),
  });
  assert.equal(response.status, 200);
  const body = await response.json() as CohereBody;
  assert.equal(body.results[0]?.index, 0);
});

Deno.test("POST /v2/rerank rejects an unknown model with a 400 listing the valid ones", async () => {
  const message = await expectBadRequest("/v2/rerank", {
    model: "rerank-v3.5",
    query: RERANK_QUERY,
    documents: ["BM25 ranks documents."],
  });
  assert.match(message, /^model: .*rerank-v3\.5/);
  for (const model of COHERE_MODELS) assert.ok(message.includes(model), message);
});

// ---- /v1/query with a rerank step ------------------------------------------------------------

Deno.test("POST /v1/query with two-turn rerank streams retrieval, rubric, rerank, then the answer", async () => {
  const { post } = testApp();
  const ingest = await post("/v1/documents", {
    documents: RERANK_DOCUMENTS.map(ingestable),
  });
  assert.equal(ingest.status, 201);
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "two-turn" } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const names = events.map((event) => event.event);
  const deltas = names.filter((name) => name === "answer-delta").length;
  assert.ok(deltas >= 1);
  assert.deepEqual(names, [
    "retrieval-end",
    "rubric-end",
    "rerank-end",
    ...Array(deltas).fill("answer-delta"),
    "answer-end",
    "usage",
    "done",
  ]);
  const data = (name: string) => events.find((event) => event.event === name)!.data;
  const retrieval = data("retrieval-end") as { results: { id: string; doc_id: string }[] };
  assert.equal(retrieval.results.length, 10, "rerank strategies retrieve 10 by default");
  const rubric = (data("rubric-end") as { rubric: Rubric }).rubric;
  assert.ok(rubric.criteria.length > 0);
  const reranked = data("rerank-end") as {
    results: (Result & { doc_id: string })[];
    degraded: boolean;
  };
  assert.ok(reranked.results.length >= 1 && reranked.results.length <= 3, "keeps 3 by default");
  assert.equal(reranked.degraded, false);
  for (const result of reranked.results) {
    assert.equal(result.doc_id, retrieval.results[result.index]!.doc_id);
    assertFinalFromParts(result, weightsOf(rubric));
  }
  const usage = data("usage") as { steps: { name: string }[] };
  assert.deepEqual(usage.steps.map((step) => step.name).sort(), [
    "answer",
    "rerank",
    "retrieval",
    "rubric",
  ]);
});
