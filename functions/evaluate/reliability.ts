import type { JudgeCount, QuestionResult, Reliability } from "./types.ts";

const count = (judged: number, excluded: number): JudgeCount => ({ judged, excluded });

/**
 * How far one variant's numbers can be trusted: per judge, the judgments
 * made and those left out of every aggregate (no score: the reply stayed
 * unreadable after a correction, or the judge was unreachable); per
 * pipeline step, the values asked of its model and those left unreadable
 * after a correction (rerank, ITEM and ToT scores, the rubric, the
 * variations); the share of all of them left out; and the runs whose
 * pipeline fell back (rubric, rerank order, query variations).
 */
export function reliabilityOf(name: string, questions: readonly QuestionResult[]): Reliability {
  const results = questions.flatMap((question) => {
    const result = question.variants[name];
    return result ? [result] : [];
  });
  const kept = results.flatMap((result) => result.retrieval?.judgments ?? []);
  // A passage both kept and among the first retrieved counts in both lists, as both aggregates use it.
  const retrieved = results.flatMap((result) => result.retrieval?.retrieved_judgments ?? []);
  const retrieval = [...kept, ...retrieved];
  const similarities = results.flatMap((result) => result.similarity ? [result.similarity] : []);
  const answers = results.filter((result) => result.answer_scores !== undefined);
  const games = questions.flatMap((question) =>
    question.games.filter((game) => game.a === name || game.b === name)
  );
  const judges = {
    retrieval: count(
      retrieval.length,
      retrieval.filter((judgment) => judgment.score === null).length,
    ),
    similarity: count(
      similarities.length,
      similarities.filter((similarity) => similarity.score === null).length,
    ),
    answer: count(answers.length, answers.filter((result) => result.answer_scores === null).length),
    pairwise: count(games.length, games.filter((game) => game.winner === null).length),
  };
  const readings = results.flatMap((result) => result.run?.readings ? [result.run.readings] : []);
  const step = (kind: "rerank" | "rubric" | "variations") =>
    count(
      readings.reduce((sum, reading) => sum + reading[kind].asked, 0),
      readings.reduce((sum, reading) => sum + reading[kind].unreadable, 0),
    );
  const steps = { rerank: step("rerank"), rubric: step("rubric"), variations: step("variations") };
  const all = [...Object.values(judges), ...Object.values(steps)];
  const judged = all.reduce((sum, judge) => sum + judge.judged, 0);
  const excluded = all.reduce((sum, judge) => sum + judge.excluded, 0);
  const runs = results.flatMap((result) => result.run ? [result.run] : []);
  const fell = (kind: "rubric" | "rerank_order" | "variations") =>
    runs.filter((run) => run.fallbacks?.[kind]).length;
  const fellBack = runs.filter((run) => Object.keys(run.fallbacks ?? {}).length > 0).length;
  return {
    judges,
    steps,
    degraded_share: judged ? excluded / judged : null,
    fallbacks: {
      runs: fellBack,
      rubric: fell("rubric"),
      rerank_order: fell("rerank_order"),
      variations: fell("variations"),
    },
    fallback_share: runs.length ? fellBack / runs.length : null,
  };
}
