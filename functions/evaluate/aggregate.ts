import type { AnswerScores, Verdict } from "../../shared/judge/types.ts";
import { reliabilityOf } from "./reliability.ts";
import { hitAtK, reciprocalRankAtK } from "../../shared/metrics/retrieval.ts";
import { clusterBootstrapInterval } from "../../shared/metrics/bootstrap.ts";
import { type Interval, mean, meanInterval } from "../../shared/metrics/stats.ts";
import type {
  Game,
  JudgedMrr,
  QuestionResult,
  TieRates,
  VariantRun,
  VariantSummary,
  WinRateMatrix,
} from "./types.ts";

/** Similarity is judged 0-5; REBEL's system quality uses it on a 0-1 scale. */
export const SIMILARITY_SCALE = 5;

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function meanAnswerScores(scores: AnswerScores[]): AnswerScores | null {
  if (scores.length === 0) return null;
  const of = (key: keyof AnswerScores) => mean(scores.map((score) => score[key]));
  return {
    relevance: of("relevance"),
    accuracy: of("accuracy"),
    completeness: of("completeness"),
    precision: of("precision"),
  };
}

function stepLatencies(runs: VariantRun[]): Record<string, number> {
  const byStep = new Map<string, number[]>();
  for (const run of runs) {
    for (const step of run.steps) {
      const list = byStep.get(step.name) ?? [];
      list.push(step.ended_ms - step.started_ms);
      byStep.set(step.name, list);
    }
  }
  return Object.fromEntries([...byStep].map(([name, values]) => [name, mean(values)]));
}

/**
 * MRR over judged rankings (each ordered by `index`, the first `depth`
 * only) at RAGElo's two thresholds: somewhat ≥ 1, very = 2.
 */
export function judgedMrr(
  rankings: readonly (readonly { index: number; score: number | null }[])[],
  depth = 5,
): JudgedMrr | null {
  const top = rankings.map((judgments) =>
    [...judgments].sort((x, y) => x.index - y.index).slice(0, depth)
  );
  // An ungraded passage hides where the first relevant one is: such a ranking is left out.
  const graded = top.filter((ordered) => ordered.every((judgment) => judgment.score !== null));
  const excluded = top.length - graded.length;
  if (graded.length === 0) return null;
  const at = (threshold: number) =>
    mean(graded.map((ordered) => {
      const position = ordered.findIndex((judgment) => judgment.score! >= threshold);
      return position === -1 ? 0 : 1 / (position + 1);
    }));
  return {
    somewhat: at(1),
    very: at(2),
    n: graded.length,
    ...(excluded > 0 ? { excluded } : {}),
  };
}

/**
 * A mean and its 95% interval over per-run values. With one run per
 * question, Student t over the questions; when questions were run more
 * than once, a bootstrap over questions that keeps each question's runs
 * together, so the interval covers the spread between runs.
 */
export function intervalOver(
  values: readonly { question: string; value: number }[],
  bounds: { lower: number; upper: number },
): Interval | null {
  const byQuestion = new Map<string, number[]>();
  for (const { question, value } of values) {
    byQuestion.set(question, [...(byQuestion.get(question) ?? []), value]);
  }
  const repeated = [...byQuestion.values()].some((runs) => runs.length > 1);
  return repeated
    ? clusterBootstrapInterval([...byQuestion.values()], bounds)
    : meanInterval(values.map(({ value }) => value), bounds);
}

/**
 * One variant's aggregates over the questions (every run of each, when
 * they were repeated): retrieval precision and answer similarity with 95%
 * intervals, REBEL's system quality and speed, latency per step, tokens,
 * pointwise answer scores, RAGElo's judged MRR@5 over the retrieved
 * passages and the same over the kept ones, hit@k of the kept passages and
 * MRR@5 of the retrieved ones against `target_doc`, and abstentions on
 * unanswerable questions.
 */
/** Mean USD per run; unknown (null) when any run's cost is, or there are no runs. */
function meanCost(runs: VariantRun[]): number | null {
  const costs = runs.map((run) => run.cost_usd);
  if (costs.length === 0 || costs.some((cost) => typeof cost !== "number")) return null;
  return mean(costs as number[]);
}

export function summarizeVariant(name: string, questions: QuestionResult[]): VariantSummary {
  const results = questions.map((question) => ({ question, result: question.variants[name] }));
  const runs = results.flatMap(({ result }) => (result?.run ? [result.run] : []));
  const precision = intervalOver(
    results.flatMap(({ question, result }) =>
      typeof result?.retrieval?.precision === "number"
        ? [{ question: question.id, value: result.retrieval.precision }]
        : []
    ),
    { lower: 0, upper: 1 },
  );
  const similarity = intervalOver(
    results.flatMap(({ question, result }) =>
      typeof result?.similarity?.score === "number"
        ? [{ question: question.id, value: result.similarity.score }]
        : []
    ),
    { lower: 0, upper: SIMILARITY_SCALE },
  );
  const seconds = sum(runs.map((run) => run.total_ms)) / 1000;
  const targeted = results.filter(({ question, result }) => question.target_doc && result?.run);
  const ranked = targeted.map(({ question, result }) => ({
    docs: result!.run!.kept.map((passage) => passage.doc_id),
    retrieved: result!.run!.retrieved.map((passage) => passage.doc_id),
    relevant: new Set([question.target_doc!]),
  }));
  const k = Math.max(0, ...runs.map((run) => run.kept.length));
  const unanswerable = results.filter(({ question, result }) =>
    question.target_doc === null && result?.run
  );
  return {
    variant: name,
    runs: runs.length,
    failed: questions.length - runs.length,
    retrieval_precision: precision,
    answer_similarity: similarity,
    system_quality: precision && similarity
      ? (similarity.mean / SIMILARITY_SCALE) * precision.mean
      : null,
    speed_chars_per_second: seconds > 0 ? sum(runs.map((run) => run.output_chars)) / seconds : 0,
    latency_ms: { total: mean(runs.map((run) => run.total_ms)), steps: stepLatencies(runs) },
    tokens: {
      in: sum(runs.map((run) => run.tokens_in)),
      out: sum(runs.map((run) => run.tokens_out)),
    },
    cost_per_query_usd: meanCost(runs),
    answer_scores: meanAnswerScores(
      results.flatMap(({ result }) => (result?.answer_scores ? [result.answer_scores] : [])),
    ),
    hit_at_k: ranked.length
      ? { k, value: mean(ranked.map((r) => hitAtK(r.docs, r.relevant, k))), n: ranked.length }
      : null,
    mrr_at_5: judgedMrr(
      results.flatMap(({ result }) =>
        result?.retrieval?.retrieved_judgments ? [result.retrieval.retrieved_judgments] : []
      ),
    ),
    kept_mrr: judgedMrr(
      results.flatMap(({ result }) => result?.retrieval ? [result.retrieval.judgments] : []),
      Infinity,
    ),
    target_mrr_at_5: ranked.length
      ? mean(ranked.map((r) => reciprocalRankAtK(r.retrieved, r.relevant, 5)))
      : null,
    no_answer: {
      abstained: unanswerable.filter(({ result }) => !result!.run!.answered).length,
      of: unanswerable.length,
    },
    reliability: reliabilityOf(name, questions),
  };
}

/**
 * RAGElo's table 5 from the games: each row's share of wins against each
 * column (ties count in the denominator), and the row's average.
 */
export function winRateMatrix(agents: string[], games: readonly Game[]): WinRateMatrix {
  const position = new Map(agents.map((agent, index) => [agent, index]));
  const size = agents.length;
  const wins = agents.map(() => new Array<number>(size).fill(0));
  const played = agents.map(() => new Array<number>(size).fill(0));
  const readable = games.filter((game) => game.winner !== null);
  for (const game of readable) {
    const a = position.get(game.a);
    const b = position.get(game.b);
    if (a === undefined || b === undefined) continue;
    played[a]![b]!++;
    played[b]![a]!++;
    if (game.winner === "A") wins[a]![b]!++;
    if (game.winner === "B") wins[b]![a]!++;
  }
  const rate = wins.map((row, i) =>
    row.map((won, j) => (i === j || played[i]![j]! === 0 ? null : won / played[i]![j]!))
  );
  const average = rate.map((row) => {
    const known = row.filter((value): value is number => value !== null);
    return known.length ? mean(known) : null;
  });
  return {
    agents,
    rate,
    games: played,
    average,
    total_games: readable.length,
    excluded_games: games.length - readable.length,
    position_bias: readable.length
      ? readable.filter((game) => game.orders_disagree).length / readable.length
      : null,
  };
}

/**
 * Each game as RAGElo plays it: one judgment, with A shown first. Our games
 * are judged in both orders and a disagreement is a tie; here the first
 * order's verdict stands alone.
 */
export function firstOrderGames(
  games: readonly Game[],
): { a: string; b: string; winner: Verdict }[] {
  return games.flatMap(({ a, b, verdicts }) => verdicts[0] ? [{ a, b, winner: verdicts[0] }] : []);
}

/** The games with a winner, as Elo plays them: an unreadable game is left out, never a tie. */
export function playedGames(games: readonly Game[]): { a: string; b: string; winner: Verdict }[] {
  return games.flatMap(({ a, b, winner }) => winner ? [{ a, b, winner }] : []);
}

/** The share of ties among the games read under each protocol (unreadable verdicts left out); null without any. */
export function tieRates(games: readonly Game[]): TieRates {
  const share = (known: readonly (Verdict | null)[]) => {
    const read = known.filter((verdict) => verdict !== null);
    return read.length ? read.filter((verdict) => verdict === "C").length / read.length : null;
  };
  return {
    both_orders: share(games.map((game) => game.winner)),
    first_order: share(games.map((game) => game.verdicts[0])),
  };
}
