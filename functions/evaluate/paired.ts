import { pairedTTest, wilcoxonSignedRank } from "../../shared/metrics/significance.ts";
import type { QuestionResult, VariantResult } from "./types.ts";
import { variantPairs } from "./variants.ts";

/** Two variants compared over the same questions (and runs) on one per-question score. */
export type PairedTest = {
  a: string;
  b: string;
  metric: "answer_similarity" | "retrieval_precision";
  /** Questions (× runs) where both variants have a usable score. */
  n: number;
  /** Mean of b − a. */
  mean_difference: number;
  /** Two-sided p-values: SciPy's ttest_rel and wilcoxon (defaults); null where undefined. */
  t_test_p: number | null;
  wilcoxon_p: number | null;
};

/** The significance level "beats" is claimed at. */
export const PAIRED_ALPHA = 0.05;

const METRICS = {
  answer_similarity: (result: VariantResult | undefined) =>
    result?.similarity && !result.similarity.degraded ? result.similarity.score : undefined,
  retrieval_precision: (result: VariantResult | undefined) =>
    result?.retrieval && !result.retrieval.degraded ? result.retrieval.precision : undefined,
} as const;

const orNull = (value: number) => Number.isNaN(value) ? null : value;

/**
 * Every pair of variants on answer similarity and retrieval precision,
 * paired by question (and run): the paired t-test and the Wilcoxon
 * signed-rank test, so "B beats A" comes with how sure it is. Degraded or
 * missing scores leave their question out of that pair.
 */
export function pairedTests(names: readonly string[], queries: readonly QuestionResult[]) {
  const tests: PairedTest[] = [];
  for (const [a, b] of variantPairs(names)) {
    for (
      const [metric, score] of Object.entries(METRICS) as [
        PairedTest["metric"],
        typeof METRICS.answer_similarity,
      ][]
    ) {
      const pairs = queries.flatMap((query) => {
        const x = score(query.variants[a]);
        const y = score(query.variants[b]);
        return x === undefined || x === null || y === undefined || y === null
          ? []
          : [[x, y] as const];
      });
      if (pairs.length === 0) continue;
      const xs = pairs.map(([x]) => x);
      const ys = pairs.map(([, y]) => y);
      const differs = pairs.some(([x, y]) => x !== y);
      tests.push({
        a,
        b,
        metric,
        n: pairs.length,
        mean_difference: ys.reduce((sum, y, i) => sum + y - xs[i]!, 0) / pairs.length,
        t_test_p: orNull(pairedTTest(ys, xs).p_value),
        wilcoxon_p: differs ? orNull(wilcoxonSignedRank(ys, xs).p_value) : null,
      });
    }
  }
  return tests;
}

/** One comparison as a sentence: who beats whom, by how much, and how sure. */
export function pairedSentence(test: PairedTest): string {
  const metric = test.metric.replace("_", " ");
  const p = (value: number | null) =>
    value === null ? "n/a" : value < 0.0001 ? "<0.0001" : value.toFixed(4);
  const [better, worse] = test.mean_difference >= 0 ? [test.b, test.a] : [test.a, test.b];
  const significant = (test.t_test_p ?? 1) < PAIRED_ALPHA && (test.wilcoxon_p ?? 1) < PAIRED_ALPHA;
  const verb = test.mean_difference === 0 ? "ties" : significant ? "beats" : "is not shown to beat";
  return `${better} ${verb} ${worse} on ${metric} by ${
    Math.abs(test.mean_difference).toFixed(3)
  } ` +
    `over ${test.n} paired questions (paired t p = ${p(test.t_test_p)}, Wilcoxon p = ${
      p(test.wilcoxon_p)
    })`;
}
