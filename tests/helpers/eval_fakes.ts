import type { Verdict } from "../../shared/judge/types.ts";
import { eloTournament } from "../../shared/metrics/elo.ts";
import type { EvalSteps, StepCall } from "../../functions/evaluate/steps.ts";
import type { VariantRun } from "../../functions/evaluate/types.ts";

/** How good each strategy pretends to be (the fake's ground truth), 0-1. */
const QUALITY: Record<string, number> = {
  "none": 0.4,
  "relevance": 0.55,
  "one-turn": 0.7,
  "two-turn-relevance": 0.75,
  "two-turn": 0.85,
};

export type FakeStepsOptions = {
  /** Units (`run:<query>:<variant>`, `retrieval:...`, `game:...`) that throw. */
  failOn?: (unit: string) => boolean;
  /** Milliseconds each step takes (a timer, so aborts land mid-step). */
  delayMs?: number;
  /** Text every answer carries, e.g. markup to test escaping. */
  answerSuffix?: string;
};

async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  signal?.throwIfAborted();
}

/**
 * Deterministic steps with no model behind them, for tests and demos: each
 * strategy has a fixed quality that drives its precision, similarity,
 * speed and game wins, and every call is recorded by unit name so a test
 * can count what was computed.
 */
export function fakeSteps(options: FakeStepsOptions = {}) {
  const calls: string[] = [];
  const completed: string[] = [];
  const strategyOf = (answer: string) => answer.match(/^\[([\w-]+)(\+fusion)?\]/)?.[1] ?? "none";
  /** Calls are recorded by unit; a repeated run's also name their cache scope (`...@repeat-2`). */
  const step = async <T>(
    name: string,
    signal: AbortSignal | undefined,
    make: () => T,
    call?: StepCall,
  ) => {
    const unit = call?.cacheScope ? `${name}@${call.cacheScope}` : name;
    calls.push(unit);
    await pause(options.delayMs ?? 0, signal);
    if (options.failOn?.(unit)) throw new Error(`fake failure in ${unit}`);
    completed.push(unit);
    return make();
  };
  const steps: EvalSteps = {
    runVariant: (_deps, { query, pipeline }, signal, call) => {
      const name = (pipeline.rerank?.strategy ?? "none") +
        (pipeline.retrieval.fusion ? "+fusion" : "");
      return step(`run:${query}:${name}`, signal, (): VariantRun => {
        const answer = `[${name}] An answer to ${query}.${options.answerSuffix ?? ""}`;
        const total = 100 + 400 * (QUALITY[pipeline.rerank?.strategy ?? "none"] ?? 0.5);
        return {
          answer,
          answered: !/unanswerable/i.test(query),
          citations: 1,
          // doc-a#0 is also kept; doc-z#0 is judged only for RAGElo's MRR@5.
          retrieved: [
            { id: "doc-a#0", doc_id: "doc-a", score: 1, text: "doc-a passage 0" },
            { id: "doc-z#0", doc_id: "doc-z", score: 0.5, text: "doc-z passage" },
          ],
          kept: ["doc-a", "doc-b", "doc-c"].map((doc, i) => ({
            id: `${doc}#0`,
            doc_id: doc,
            text: `${doc} passage ${i}`,
          })),
          steps: [{
            name: "answer",
            started_ms: 0,
            ended_ms: total,
            tokens_in: 100,
            tokens_out: 20,
            via: "in-process",
          }],
          total_ms: total,
          tokens_in: 100,
          tokens_out: 20,
          output_chars: answer.length,
          chars_per_second: answer.length / (total / 1000),
          degraded: false,
        };
      }, call);
    },
    judgeRetrieval: (_deps, { query, documents }, signal, call) =>
      step(`retrieval:${query}:${documents.map((d) => d.id).join(",")}`, signal, () => ({
        judgments: documents.map((_, index) => ({
          index,
          score: index === 0 ? 2 as const : 1 as const,
          reason: "fake",
        })),
        precision: 1,
        excluded: 0,
        degraded: false,
        usage: { tokens_in: 0, tokens_out: 0 },
      }), call),
    answerSimilarity: (_deps, { answer }, signal, call) =>
      step(`similarity:${answer}`, signal, () => ({
        score: 5 * (QUALITY[strategyOf(answer)] ?? 0.5),
        reason: "fake",
        degraded: false,
        usage: { tokens_in: 0, tokens_out: 0 },
      }), call),
    judgeAnswer: (_deps, { answer }, signal, call) =>
      step(`answer:${answer}`, signal, () => {
        const grade = Math.round(2 * (QUALITY[strategyOf(answer)] ?? 0.5));
        return {
          scores: { relevance: grade, accuracy: grade, completeness: grade, precision: grade },
          reasoning: "fake",
          degraded: false,
          usage: { tokens_in: 0, tokens_out: 0 },
        };
      }, call),
    judgePairwise: (_deps, { answer_a, answer_b }, signal, call) =>
      step(`game:${answer_a}|${answer_b}`, signal, () => {
        const [a, b] = [QUALITY[strategyOf(answer_a)] ?? 0.5, QUALITY[strategyOf(answer_b)] ?? 0.5];
        // Close calls go to whichever answer is shown first: position bias, reconciled to a tie.
        const close = Math.abs(a - b) < 0.1;
        const winner: Verdict = close ? "C" : a > b ? "A" : "B";
        return {
          winner,
          verdicts: (close ? ["A", "B"] : [winner, winner]) as [Verdict, Verdict],
          orders_disagree: close,
          reasoning: "fake",
          degraded: false,
          usage: { tokens_in: 0, tokens_out: 0 },
        };
      }, call),
    eloTournament: (games, settings) => eloTournament(games, { ...settings, bootstrap: 200 }),
  };
  return { steps, calls, completed };
}
