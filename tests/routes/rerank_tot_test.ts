/**
 * Strategy tot (ToT-RAG) through `/v1/rerank`, `/v2/rerank`, the pipeline and
 * the chat presets, on the offline model in both output modes. The tree's
 * invariants are checked from the reply alone, as a caller could.
 */
import assert from "node:assert/strict";
import { QUALITY_DIMENSIONS, SIMILARITY_DIMENSIONS } from "../../shared/rerank/tot/dimensions.ts";
import { parseVariants } from "../../functions/evaluate/variants.ts";
import { type Env, type ErrorBody, readEvents, testApp } from "./helpers.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";

type Level = {
  kind: string;
  dimensions: string[];
  chosen_by: string;
  thresholds: Record<string, number>;
  candidates: { index: number; scores: Record<string, number>; kept: boolean }[];
  degraded?: true;
};
type Result = {
  index: number;
  id?: string;
  relevance_score: number | null;
  degraded?: true;
  scores: { relevance: null; criteria: Record<string, number>; final: number };
  sentence?: string;
  candidate?: number;
};
type TotBody = {
  results: Result[];
  discarded: { index: number; reason: string }[];
  tree: { unit: string; sentences?: { document: number; text: string }[]; levels: Level[] };
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
};

const TEXT_MODE: Env = { DEMO_CORPUS: "false", LLM_STRUCTURED_OUTPUTS: "false" };

async function rerankTot(body: Record<string, unknown> = {}, env?: Env): Promise<TotBody> {
  const { post } = testApp(env);
  const response = await post("/v1/rerank", {
    query: RERANK_QUERY,
    documents: RERANK_DOCUMENTS,
    strategy: "tot",
    ...body,
  });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as TotBody;
}

const meets = (scores: Record<string, number>, thresholds: Record<string, number>) =>
  Object.entries(thresholds).every(([name, threshold]) => scores[name]! >= threshold);
const mean = (scores: Record<string, number>, names: readonly string[]) =>
  names.reduce((sum, name) => sum + scores[name]!, 0) / names.length;

/**
 * The tree as documented: level 1 lists every candidate, level 2 exactly
 * those level 1 kept; a candidate is kept exactly when it meets every
 * threshold of its level; the results are level 2's kept ones, best first
 * by mean level-2 score, then mean level-1 score.
 */
function assertTree(body: TotBody, candidateCount: number, dimensionsPerLevel = 2) {
  const [first, second] = body.tree.levels;
  assert.equal(body.tree.levels.length, 2);
  assert.equal(first!.kind, "quality");
  assert.equal(second!.kind, "similarity");
  for (
    const [level, pool] of [[first!, QUALITY_DIMENSIONS], [second!, SIMILARITY_DIMENSIONS]] as const
  ) {
    assert.equal(level.dimensions.length, dimensionsPerLevel, `${level.dimensions}`);
    assert.equal(new Set(level.dimensions).size, dimensionsPerLevel, `${level.dimensions}`);
    assert.ok(
      level.dimensions.every((name) => pool.includes(name as never)),
      `${level.dimensions}`,
    );
    assert.deepEqual(Object.keys(level.thresholds).sort(), [...level.dimensions].sort());
    for (const candidate of level.candidates) {
      assert.deepEqual(Object.keys(candidate.scores).sort(), [...level.dimensions].sort());
      for (const score of Object.values(candidate.scores)) assert.ok(score >= 0 && score <= 1);
      // Kept exactly when every threshold is met: a dropped one misses one where it was dropped.
      if (!level.degraded) {
        assert.equal(
          candidate.kept,
          meets(candidate.scores, level.thresholds),
          JSON.stringify(candidate),
        );
      }
    }
    assert.ok(level.candidates.some((candidate) => candidate.kept), "someone goes on");
  }
  assert.deepEqual(first!.candidates.map((c) => c.index), [...Array(candidateCount).keys()]);
  assert.deepEqual(
    second!.candidates.map((c) => c.index),
    first!.candidates.filter((c) => c.kept).map((c) => c.index),
    "level 2 lists exactly those level 1 kept",
  );
  const keptAtEnd = second!.candidates.filter((c) => c.kept);
  const resultCandidates = body.results.map((r) => r.candidate ?? r.index);
  assert.deepEqual([...resultCandidates].sort((x, y) => x - y), keptAtEnd.map((c) => c.index));
  const firstScores = new Map(first!.candidates.map((c) => [c.index, c.scores]));
  const secondScores = new Map(second!.candidates.map((c) => [c.index, c.scores]));
  const order = body.results.map((result) => {
    const candidate = result.candidate ?? result.index;
    const quality = firstScores.get(candidate)!;
    const similarity = secondScores.get(candidate)!;
    // Every kept document meets every threshold of both levels.
    assert.ok(meets(quality, first!.thresholds) && meets(similarity, second!.thresholds));
    assert.equal(result.relevance_score, result.scores.final);
    assert.ok(Math.abs(result.relevance_score - mean(similarity, second!.dimensions)) < 1e-6);
    assert.deepEqual(result.scores.criteria, { ...quality, ...similarity });
    return [result.relevance_score, mean(quality, first!.dimensions)] as const;
  });
  for (let i = 1; i < order.length; i++) {
    const [[s0, q0], [s1, q1]] = [order[i - 1]!, order[i]!];
    assert.ok(s0 > s1 || (s0 === s1 && q0 >= q1 - 1e-9), `results ${i - 1}, ${i} out of order`);
  }
}

for (const [mode, env] of [["structured", undefined], ["text", TEXT_MODE]] as const) {
  Deno.test(`POST /v1/rerank tot (${mode} mode) returns a ranking with its tree`, async () => {
    const body = await rerankTot({}, env);
    assertTree(body, RERANK_DOCUMENTS.length);
    assert.equal(body.tree.unit, "passage");
    assert.equal(body.degraded, false);
    assert.equal(body.tree.levels[0]!.chosen_by, "agent");
    // On-topic, well-formed passages go on; the cat and the sourdough do not.
    assert.equal(body.results[0]!.id, "bm25-paper");
    const kept = body.results.map((r) => r.id);
    assert.ok(!kept.includes("cats") && !kept.includes("sourdough"), `${kept}`);
    // Every document is either a result or discarded, with the level that dropped it.
    const indices = [...body.results, ...body.discarded].map((entry) => entry.index);
    assert.deepEqual([...indices].sort((x, y) => x - y), [...RERANK_DOCUMENTS.keys()]);
    for (const { index, reason } of body.discarded) {
      const level = body.tree.levels.findLastIndex((l) =>
        l.candidates.some((c) => c.index === index)
      );
      assert.match(reason, new RegExp(`^level ${level + 1}: \\w+ [\\d.]+ < [\\d.]+$`));
    }
    // Two agents, two evaluators, two scores per candidate per level.
    const reached = body.tree.levels.reduce((sum, l) => sum + l.candidates.length, 0);
    assert.equal(body.usage.llm_calls, 4 + 2 * reached);
    assert.ok(body.usage.tokens_in > 0 && body.usage.tokens_out > 0);
  });
}

Deno.test("POST /v1/rerank tot ranks the same in both output modes, and caches", async () => {
  const { post } = testApp();
  const request = { query: RERANK_QUERY, documents: RERANK_DOCUMENTS, strategy: "tot", top_n: 2 };
  const structured = await (await post("/v1/rerank", request)).json() as TotBody;
  const text = await rerankTot({ top_n: 2 }, TEXT_MODE);
  assert.deepEqual(text.results, structured.results);
  assert.deepEqual(text.tree, structured.tree);
  assert.equal(structured.results.length, 2);
  const again = await (await post("/v1/rerank", request)).json() as TotBody;
  assert.deepEqual(again.usage, { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: true });
  assert.deepEqual(again.results, structured.results);
});

Deno.test("POST /v1/rerank tot uses pinned dimensions and skips those agent calls", async () => {
  const body = await rerankTot({
    tot: { dimensions: { level1: ["fluency", "accuracy"], level2: ["structural", "stylistic"] } },
  });
  assertTree(body, RERANK_DOCUMENTS.length);
  assert.deepEqual(body.tree.levels.map((l) => [l.dimensions, l.chosen_by]), [
    [["fluency", "accuracy"], "request"],
    [["structural", "stylistic"], "request"],
  ]);
  const reached = body.tree.levels.reduce((sum, l) => sum + l.candidates.length, 0);
  assert.equal(body.usage.llm_calls, 2 + 2 * reached, "no agent call");
});

Deno.test("POST /v1/rerank tot with unit sentence returns kept sentences with their source passage", async () => {
  const body = await rerankTot({ tot: { unit: "sentence" } }, TEXT_MODE);
  const sentences = body.tree.sentences!;
  assert.equal(body.tree.unit, "sentence");
  assert.ok(sentences.length > RERANK_DOCUMENTS.length, `${sentences.length} sentences`);
  assertTree(body, sentences.length);
  const flat = (text: string) => text.replace(/\s+/g, " ");
  for (const result of body.results) {
    assert.equal(typeof result.sentence, "string");
    assert.deepEqual(sentences[result.candidate!], {
      document: result.index,
      text: result.sentence,
    });
    assert.ok(flat(RERANK_DOCUMENTS[result.index]!.text).includes(result.sentence!));
    assert.equal(result.id, RERANK_DOCUMENTS[result.index]!.id);
  }
  // Sentences of one passage follow each other, in passage order.
  assert.deepEqual(
    sentences.map((s) => s.document),
    [...sentences.map((s) => s.document)].sort((x, y) => x - y),
  );
  const keptPassages = new Set(body.results.map((r) => r.index));
  for (const { index, reason } of body.discarded) {
    assert.ok(!keptPassages.has(index));
    assert.equal(reason, "none of its sentences was kept");
  }
  assert.equal(keptPassages.size + body.discarded.length, RERANK_DOCUMENTS.length);
});

Deno.test("POST /v1/rerank tot on a malformed model degrades to retrieval order, never a 500", async () => {
  const body = await rerankTot(
    { documents: RERANK_DOCUMENTS.slice(0, 6) },
    { DEMO_CORPUS: "false", OFFLINE_MODEL_FAULTS: "malformed=1" },
  );
  assert.equal(body.degraded, true);
  assert.ok(body.tree.levels.every((level) => level.degraded && level.chosen_by === "default"));
  // Every score unusable (after a correction): no one is scored, never as 0; retrieval order stands.
  assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2, 3, 4, 5]);
  assert.ok(body.results.every((r) => r.relevance_score === null && r.degraded));
  assert.ok(body.warnings!.some((w) => /unusable, even after a correction/.test(w)));
});

Deno.test("POST /v1/rerank tot answers 400 for options it cannot take", async () => {
  const { post } = testApp();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ strategy: "one-turn", tot: { unit: "sentence" } }, /^tot: only strategy tot/],
    [{ strategy: "tot", weights: 1 }, /^weights: strategy tot/],
    [{ strategy: "tot", tot: { dimensions: { level1: ["fluency", "fluency"] } } }, /different/],
    [
      { strategy: "tot", tot: { dimensions: { level1: ["lexical", "fluency"] } } },
      /level1\.0: must be one of fluency/,
    ],
    [
      { strategy: "tot", tot: { dimensions: { level2: ["lexical"] } } },
      /^tot\.dimensions\.level2: must name 2 dimensions \(dimensions_per_level\)/,
    ],
    [{ strategy: "tot", tot: { dimensions_per_level: 0 } }, /^tot\.dimensions_per_level: /],
    [{ strategy: "tot", tot: { dimensions_per_level: "x" } }, /^tot\.dimensions_per_level: /],
    [{ strategy: "tot", tot: { dimensions_per_level: 2.5 } }, /^tot\.dimensions_per_level: /],
    [{ strategy: "tot", tot: { dimensions_per_level: 6 } }, /^tot\.dimensions_per_level: .*5/],
    [
      {
        strategy: "tot",
        tot: { dimensions_per_level: 3, dimensions: { level1: ["fluency", "novelty"] } },
      },
      /^tot\.dimensions\.level1: must name 3 dimensions/,
    ],
    [{ strategy: "tot", tot: { unit: "word" } }, /tot\.unit/],
    [{ strategy: "tot", tot: { models: { flavour: "m" } } }, /tot\.models\.flavour/],
    [
      { strategy: "tot", tot: { models: { fluency: " " } } },
      /^tot\.models\.fluency: must name a model/,
    ],
    [{ strategy: "tot", tot: { depth: 3 } }, /tot/],
    [
      { strategy: "tot", documents: Array.from({ length: 101 }, (_, i) => `doc ${i}`) },
      /at most 100/,
    ],
  ];
  for (const [body, message] of cases) {
    const response = await post("/v1/rerank", { query: "q", documents: ["a b"], ...body });
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match((await response.json() as ErrorBody).error.message, message);
  }
});

Deno.test("POST /v2/rerank sift-tot scores are the mean level-2 scores of what the tree kept", async () => {
  const { post } = testApp();
  const documents = RERANK_DOCUMENTS.map((d) => d.text);
  const native = await rerankTot({ documents });
  const response = await post("/v2/rerank", { model: "sift-tot", query: RERANK_QUERY, documents });
  assert.equal(response.status, 200);
  const cohere = await response.json() as {
    results: { index: number; relevance_score: number }[];
    discarded: { index: number; reason: string }[];
  };
  const kept = native.results.map((r) => ({ index: r.index, relevance_score: r.relevance_score }));
  assert.deepEqual(cohere.results.slice(0, kept.length), kept);
  assert.ok(kept.length < documents.length, "the tree dropped documents");
  // The dropped ones follow, below every kept score, and `discarded` says why.
  assert.equal(cohere.results.length, documents.length);
  assert.deepEqual(
    cohere.discarded.map((entry) => entry.index).sort((a, b) => a - b),
    native.discarded.map((entry) => entry.index).sort((a, b) => a - b),
  );
  const lowest = Math.min(...kept.map((result) => result.relevance_score ?? 0));
  for (const result of cohere.results.slice(kept.length)) {
    assert.ok(result.relevance_score < lowest, JSON.stringify(result));
  }
  const omitted = await post("/v2/rerank", {
    model: "sift-tot",
    query: RERANK_QUERY,
    documents,
    discarded: "omit",
  });
  assert.deepEqual((await omitted.json() as typeof cohere).results, kept);
});

async function appWithRerankCorpus() {
  const setup = testApp();
  const documents = RERANK_DOCUMENTS.map(({ id, text, metadata }) => ({
    id,
    text,
    title: metadata.title,
  }));
  assert.equal((await setup.post("/v1/documents", { documents })).status, 201);
  return setup;
}

Deno.test("POST /v1/query with rerank strategy tot streams the tree and answers from the kept passages", async () => {
  const { post } = await appWithRerankCorpus();
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "tot", tot: { unit: "sentence" } } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const rerankEnd = events.find((e) => e.event === "rerank-end")?.data as TotBody | undefined;
  assert.ok(rerankEnd, events.map((e) => e.event).join(","));
  assert.equal(rerankEnd.tree.levels.length, 2);
  // No cut unless one is asked for: every survivor of the tree goes on (paper 003 §3.3).
  assert.ok(rerankEnd.results.length >= 1);
  const survivors = rerankEnd.results.length;
  assert.ok(rerankEnd.results.every((r) => typeof r.sentence === "string"));
  const answer = events.find((e) => e.event === "answer-end")?.data as { answer: string };
  assert.ok(answer.answer.length > 0);
  const usage = events.find((e) => e.event === "usage")?.data as {
    steps: { name: string; tokens_in: number }[];
  };
  assert.ok(usage.steps.find((s) => s.name === "rerank")!.tokens_in > 0);
  if (survivors > 1) {
    const cut = await post("/v1/query", {
      query: RERANK_QUERY,
      pipeline: { rerank: { strategy: "tot", tot: { unit: "sentence" }, top_n: 1 } },
    });
    const cutEnd = (await readEvents(cut)).find((e) => e.event === "rerank-end")?.data as TotBody;
    assert.equal(cutEnd.results.length, 1, "top_n cuts when asked");
  }
  const bad = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "one-turn", tot: { unit: "sentence" } } },
  });
  assert.equal(bad.status, 400);
});

Deno.test("the sift-tot chat preset and the tot evaluation variants run strategy tot", async () => {
  const { post } = await appWithRerankCorpus();
  const response = await post("/v1/chat/completions", {
    model: "sift-tot",
    messages: [{ role: "user", content: RERANK_QUERY }],
  });
  assert.equal(response.status, 200, await response.clone().text());
  const completion = await response.json() as { sources: { id: string; text: string }[] };
  assert.ok(completion.sources.length >= 1);
  assert.equal(completion.sources[0]!.id.split("#")[0], "bm25-paper");
  const [plain, fused] = parseVariants("tot,tot+fusion", "ns");
  assert.equal(plain!.pipeline.rerank?.strategy, "tot");
  assert.equal(plain!.pipeline.rerank?.top_n, plain!.pipeline.retrieval.top_k, "no cut");
  assert.equal(fused!.pipeline.rerank?.strategy, "tot");
  assert.equal(fused!.pipeline.retrieval.fusion, 4);
});

for (const [mode, env] of [["structured", undefined], ["text", TEXT_MODE]] as const) {
  Deno.test(`POST /v1/rerank tot (${mode} mode) with tot.dimensions_per_level 3 scores each level on three`, async () => {
    const body = await rerankTot({ tot: { dimensions_per_level: 3 } }, env);
    assertTree(body, RERANK_DOCUMENTS.length, 3);
    assert.equal(body.degraded, false);
    assert.deepEqual(body.tree.levels.map((level) => level.chosen_by), ["agent", "agent"]);
    assert.ok(body.results.every((r) => Object.keys(r.scores.criteria).length === 6));
    assert.equal(body.results[0]!.id, "bm25-paper");
    // The default is two, as before the option: the same request without it scores on two.
    const two = await rerankTot({}, env);
    assertTree(two, RERANK_DOCUMENTS.length, 2);
    assert.deepEqual(
      two.tree.levels.map((level) => level.dimensions),
      body.tree.levels.map((level) => level.dimensions.slice(0, 2)),
      "the offline agent's first two by spread are the same either way",
    );
  });
}

Deno.test("POST /v1/rerank tot pins three dimensions per level with dimensions_per_level 3", async () => {
  const body = await rerankTot({
    tot: {
      dimensions_per_level: 3,
      dimensions: {
        level1: ["fluency", "accuracy", "novelty"],
        level2: ["lexical", "semantic", "stylistic"],
      },
    },
  });
  assertTree(body, RERANK_DOCUMENTS.length, 3);
  assert.deepEqual(body.tree.levels.map((level) => [level.dimensions, level.chosen_by]), [
    [["fluency", "accuracy", "novelty"], "request"],
    [["lexical", "semantic", "stylistic"], "request"],
  ]);
});

Deno.test("GET /openapi.json shows tot.dimensions_per_level: an integer 1-5, default 2", async () => {
  const { app, env } = testApp();
  const response = await app.request("/openapi.json", {}, env);
  assert.equal(response.status, 200);
  type Schema = { properties?: Record<string, Schema>; [key: string]: unknown };
  const document = await response.json() as {
    paths: Record<
      string,
      { post: { requestBody: { content: Record<string, { schema: Schema }> } } }
    >;
  };
  const body = document.paths["/v1/rerank"]!.post.requestBody.content["application/json"]!.schema;
  const count = body.properties!.tot!.properties!.dimensions_per_level!;
  assert.equal(count.type, "integer");
  assert.equal(count.minimum, 1);
  assert.equal(count.maximum, 5);
  assert.equal(count.default, 2);
});
