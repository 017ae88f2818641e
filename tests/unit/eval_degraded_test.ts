import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { renderReportHtml } from "../../functions/evaluate/report/html.ts";
import { summaryText } from "../../functions/evaluate/report/text.ts";
import { verdictOf } from "../../functions/evaluate/report/verdict.ts";
import { runEvaluation } from "../../functions/evaluate/run.ts";
import type { EvalSteps } from "../../functions/evaluate/steps.ts";
import type { EvalQuestion } from "../../functions/evaluate/types.ts";
import { Runtime } from "../../compose/runtime.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";

const QUESTIONS: EvalQuestion[] = Array.from({ length: 4 }, (_, i) => ({
  id: `q${i}`,
  question: `Question number ${i}?`,
  reference_answer: `Reference ${i}.`,
  target_doc: "doc-a",
}));

const input = (runId: string) => ({
  dataset: { name: "fake", questions: QUESTIONS },
  variants: ["none", "two-turn"],
  namespace: "default",
  run_id: runId,
});

/**
 * Fake steps whose judge cannot be read on question q0: its retrieval
 * grades, similarity, answer scores and game have no score, as the judges
 * return them when a reply stays unreadable after the correction.
 */
function unreadableOnFirstQuestion(): EvalSteps {
  const { steps } = fakeSteps();
  const unreadable = (query: string | undefined) => query === QUESTIONS[0]!.question;
  return {
    ...steps,
    judgeRetrieval: async (deps, request, signal, call) => {
      const evaluation = await steps.judgeRetrieval(deps, request, signal, call);
      if (!unreadable(request.query)) return evaluation;
      return {
        ...evaluation,
        judgments: evaluation.judgments.map((judgment) => ({
          ...judgment,
          score: null,
          degraded: true as const,
        })),
        precision: null,
        excluded: evaluation.judgments.length,
        degraded: true,
      };
    },
    answerSimilarity: async (deps, request, signal, call) => {
      const evaluation = await steps.answerSimilarity(deps, request, signal, call);
      return unreadable(request.query)
        ? { ...evaluation, score: null, degraded: true }
        : evaluation;
    },
    judgeAnswer: async (deps, request, signal, call) => {
      const evaluation = await steps.judgeAnswer(deps, request, signal, call);
      return unreadable(request.query)
        ? { ...evaluation, scores: null, degraded: true }
        : evaluation;
    },
    judgePairwise: async (deps, request, signal, call) => {
      const evaluation = await steps.judgePairwise(deps, request, signal, call);
      return unreadable(request.query)
        ? { ...evaluation, winner: null, verdicts: [null, null], degraded: true }
        : evaluation;
    },
  };
}

Deno.test("an evaluation with unreadable judgments says how many and counts them as neither ties nor zeros", async () => {
  const deps = new Runtime().deps(readConfig({}));
  const report = await runEvaluation(deps, input("degraded-1"), {
    steps: unreadableOnFirstQuestion(),
  });
  const clean = await runEvaluation(deps, {
    ...input("degraded-2"),
    dataset: {
      name: "fake",
      questions: QUESTIONS.slice(1),
    },
  }, { steps: fakeSteps().steps });

  // The means are those of the three readable questions: nothing was read as a 0.
  for (const [index, summary] of report.summary.entries()) {
    const readable = clean.summary[index]!;
    assert.equal(summary.retrieval_precision!.mean, readable.retrieval_precision!.mean);
    assert.equal(summary.answer_similarity!.mean, readable.answer_similarity!.mean);
    assert.deepEqual(summary.answer_scores, readable.answer_scores);
    const judges = summary.reliability!.judges;
    assert.equal(judges.similarity.excluded, 1);
    assert.equal(judges.answer.excluded, 1);
    assert.equal(judges.pairwise.excluded, 1);
    assert.ok(judges.retrieval.excluded > 0);
    assert.ok(summary.reliability!.degraded_share! > 0.1);
  }
  // The unreadable game is in no Elo game, win rate or tie rate.
  assert.equal(report.win_rates.total_games, 3);
  assert.equal(report.win_rates.excluded_games, 1);
  const played = report.elo.reduce((sum, r) => sum + r.wins + r.losses + r.ties, 0);
  assert.equal(played, 2 * 3);
  assert.deepEqual(report.tie_rates, clean.tie_rates);

  // Past the bound (10% by default), no winner is named, and the summary says why.
  const verdict = verdictOf(report);
  assert.equal(verdict.certainty, "unreliable");
  assert.equal(verdict.ship, null);
  const text = summaryText(report);
  assert.match(text, /^verdict: no winner named: none has \d+% of its judgments unreadable/);
  assert.match(text, /3 pairwise games \(1 left out: a verdict was unreadable\)/);
  assert.match(text, /degraded +fallbacks/);
  const html = renderReportHtml(report);
  assert.match(html, /data-certainty="unreliable"/);
  assert.match(html, /Judgments left out and fallbacks/);

  // A looser bound lets the verdict stand on the readable judgments.
  const loose = { ...report, config: { ...report.config, max_degraded_share: 0.5 } };
  assert.notEqual(verdictOf(loose).certainty, "unreliable");
  assert.equal(verdictOf(clean).certainty === "unreliable", false);
});
