import assert from "node:assert/strict";
import { judgedMrr, summarizeVariant, winRateMatrix } from "../../functions/evaluate/aggregate.ts";
import { meanInterval, sampleStd, tCritical975 } from "../../shared/metrics/stats.ts";
import type { Game, QuestionResult, VariantRun } from "../../functions/evaluate/types.ts";
import {
  pairsForQuestion,
  parseVariants,
  variantPairs,
  variantPipeline,
} from "../../functions/evaluate/variants.ts";

const close = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${actual} is not ${expected} ± ${tolerance}`,
  );

Deno.test("tCritical975 matches Student t tables and tends to the normal quantile", () => {
  close(tCritical975(1), 12.706);
  close(tCritical975(4), 2.776);
  close(tCritical975(30), 2.042);
  close(tCritical975(60), 2.000, 0.001); // table: 2.000
  close(tCritical975(120), 1.980, 0.001); // table: 1.980
  close(tCritical975(1e9), 1.95996, 1e-4);
});

Deno.test("meanInterval is mean ± t · s/√n, clamped to the metric's range", () => {
  const values = [2, 4, 4, 4, 5, 5, 7, 9];
  const interval = meanInterval(values)!;
  const half = 2.365 * sampleStd(values) / Math.sqrt(8);
  close(interval.mean, 5);
  close(interval.ci_low, 5 - half);
  close(interval.ci_high, 5 + half);
  assert.equal(interval.n, 8);
  assert.deepEqual(meanInterval([1, 0, 1, 1], { lower: 0, upper: 1 })!.ci_high, 1);
  assert.deepEqual(meanInterval([0.5]), { mean: 0.5, ci_low: 0.5, ci_high: 0.5, n: 1 });
  assert.equal(meanInterval([]), null);
});

function run(
  docs: string[],
  chars: number,
  ms: number,
  answered = true,
  retrieved: string[] = [],
): VariantRun {
  return {
    answer: "x".repeat(chars),
    answered,
    citations: 0,
    retrieved: retrieved.map((doc, i) => ({ id: `${doc}#r${i}`, doc_id: doc, score: 1 / (i + 1) })),
    kept: docs.map((doc, i) => ({ id: `${doc}#${i}`, doc_id: doc, text: "" })),
    steps: [{
      name: "retrieval",
      started_ms: 0,
      ended_ms: ms / 2,
      tokens_in: 0,
      tokens_out: 0,
      via: "in-process",
    }, {
      name: "answer",
      started_ms: ms / 2,
      ended_ms: ms,
      tokens_in: 10,
      tokens_out: 5,
      via: "in-process",
    }],
    total_ms: ms,
    tokens_in: 10,
    tokens_out: 5,
    output_chars: chars,
    chars_per_second: chars / (ms / 1000),
    degraded: false,
  };
}

const grades = (...scores: (0 | 1 | 2)[]) =>
  scores.map((score, index) => ({ index, score, reason: "" }));

Deno.test("summarizeVariant computes REBEL's quality and speed, hit@k, MRR@5 and abstentions", () => {
  const questions: QuestionResult[] = [
    {
      id: "a",
      question: "?",
      target_doc: "bert",
      games: [],
      variants: {
        v: {
          run: run(["llama", "bert", "t5"], 100, 1000, true, ["gpt", "llama", "bert", "t5", "x"]),
          retrieval: {
            precision: 1,
            judgments: grades(2, 0, 0),
            retrieved_judgments: grades(0, 0, 1, 2, 2),
            degraded: false,
          },
          similarity: { score: 4, reason: "", degraded: false },
        },
      },
    },
    {
      id: "b",
      question: "?",
      target_doc: "gpt",
      games: [],
      variants: {
        v: {
          run: run(["llama", "t5", "bert"], 300, 1000, true, ["t5", "a", "b", "c", "d", "gpt"]),
          // Judged before retrieved passages were: no retrieved grades.
          retrieval: { precision: 0.5, judgments: grades(0, 1, 0), degraded: false },
          similarity: { score: 2, reason: "", degraded: false },
        },
      },
    },
    {
      id: "c",
      question: "?",
      target_doc: null,
      games: [],
      variants: { v: { run: run(["t5"], 0, 2000, false) } },
    },
    { id: "d", question: "?", target_doc: "bert", games: [], variants: {} },
  ];
  const summary = summarizeVariant("v", questions);
  assert.equal(summary.runs, 3);
  assert.equal(summary.failed, 1);
  close(summary.retrieval_precision!.mean, 0.75);
  close(summary.answer_similarity!.mean, 3);
  close(summary.system_quality!, (3 / 5) * 0.75);
  close(summary.speed_chars_per_second, 400 / 4); // all characters over all seconds
  assert.deepEqual(summary.hit_at_k, { k: 3, value: 0.5, n: 2 });
  // Over the retrieved lists: bert third for a, gpt sixth (past 5) for b.
  close(summary.target_mrr_at_5!, (1 / 3 + 0) / 2);
  // RAGElo's MRR@5 from the retrieved passages' grades, where they exist.
  assert.deepEqual(summary.mrr_at_5, { somewhat: 1 / 3, very: 1 / 4, n: 1 });
  // The same over what was kept: not what mrr_at_5 says.
  assert.deepEqual(summary.kept_mrr, { somewhat: (1 + 1 / 2) / 2, very: (1 + 0) / 2, n: 2 });
  assert.deepEqual(summary.no_answer, { abstained: 1, of: 1 });
  close(summary.latency_ms.steps.answer!, (500 + 500 + 1000) / 3);
  assert.deepEqual(summary.tokens, { in: 30, out: 15 });
});

Deno.test("winRateMatrix counts each row's wins over the column, ties in the denominator", () => {
  const game = (a: string, b: string, winner: Game["winner"], disagree = false): Game => ({
    query_id: "q",
    a,
    b,
    winner,
    verdicts: [winner, winner],
    orders_disagree: disagree,
  });
  const matrix = winRateMatrix(["rag", "ragf", "other"], [
    game("rag", "ragf", "B"),
    game("rag", "ragf", "C", true),
    game("rag", "ragf", "A"),
    game("ragf", "rag", "A"),
  ]);
  assert.deepEqual(matrix.rate, [[null, 0.25, null], [0.5, null, null], [null, null, null]]);
  assert.deepEqual(matrix.games[0], [0, 4, 0]);
  assert.deepEqual(matrix.average, [0.25, 0.5, null]);
  assert.equal(matrix.position_bias, 0.25);
});

Deno.test("variant names map to the REBEL pipelines, with +fusion adding four variations", () => {
  assert.deepEqual(variantPipeline("none", "ns").retrieval, {
    mode: "hybrid",
    top_k: 3,
    fusion: 0,
  });
  assert.equal(variantPipeline("none", "ns").rerank, undefined);
  const fused = variantPipeline("two-turn-relevance+fusion", "ns");
  assert.deepEqual(fused.retrieval, { mode: "hybrid", top_k: 10, fusion: 4 });
  assert.equal(fused.rerank?.strategy, "two-turn-relevance");
  assert.equal(fused.rerank?.top_n, 3);
  assert.equal(fused.namespace, "ns");
  assert.throws(() => variantPipeline("three-turn", "ns"), /"three-turn" is not a variant/);
  assert.throws(() => variantPipeline("one-turn+fusion+fusion", "ns"), /not a variant/);
  assert.deepEqual(parseVariants(" none, one-turn ,none", "ns").map((v) => v.name), [
    "none",
    "one-turn",
  ]);
  assert.throws(() => parseVariants(" , ", "ns"), /at least one/);
});

Deno.test("pairsForQuestion rotates so every pair is played equally often", () => {
  const pairs = variantPairs(["a", "b", "c", "d"]);
  assert.equal(pairs.length, 6);
  const counts = new Map<string, number>();
  for (let question = 0; question < 12; question++) {
    for (const pair of pairsForQuestion(pairs, 2, question)) {
      counts.set(pair.join(), (counts.get(pair.join()) ?? 0) + 1);
    }
  }
  assert.deepEqual([...counts.values()], [4, 4, 4, 4, 4, 4]);
  assert.equal(pairsForQuestion(pairs, 10, 3).length, 6);
});

Deno.test("judgedMrr() scores RAGElo's two thresholds over the kept order", () => {
  const rankings = [
    [{ index: 0, score: 1 }, { index: 1, score: 2 }],
    [{ index: 1, score: 0 }, { index: 0, score: 0 }],
    [{ index: 2, score: 2 }, { index: 0, score: 0 }, { index: 1, score: 0 }],
  ];
  const mrr = judgedMrr(rankings)!;
  assert.equal(mrr.somewhat, (1 + 0 + 1 / 3) / 3);
  assert.equal(mrr.very, (1 / 2 + 0 + 1 / 3) / 3);
  assert.equal(mrr.n, 3);
  assert.equal(judgedMrr([]), null);
  // Only the first five count, unless the depth says otherwise.
  const late = [[0, 0, 0, 0, 0, 2].map((score, index) => ({ index, score }))];
  assert.equal(judgedMrr(late)!.somewhat, 0);
  assert.equal(judgedMrr(late, Infinity)!.very, 1 / 6);
});

Deno.test("summarizeVariant's cost per query is the runs' mean, unknown when any run's is", () => {
  const question = (id: string, cost: number | null | undefined): QuestionResult => ({
    id,
    question: "?",
    target_doc: null,
    games: [],
    variants: {
      v: { run: { ...run(["a"], 10, 100), ...(cost !== undefined ? { cost_usd: cost } : {}) } },
    },
  });
  close(
    summarizeVariant("v", [question("a", 0.002), question("b", 0.004)]).cost_per_query_usd!,
    0.003,
  );
  assert.equal(
    summarizeVariant("v", [question("a", 0.002), question("b", null)]).cost_per_query_usd,
    null,
  );
  assert.equal(summarizeVariant("v", [question("a", undefined)]).cost_per_query_usd, null);
});
