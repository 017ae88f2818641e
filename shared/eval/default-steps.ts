import { judgeAnswer } from "../../functions/judge/answer.ts";
import { judgePairwise } from "../../functions/judge/pairwise.ts";
import { judgeRetrieval } from "../../functions/judge/retrieval.ts";
import { answerSimilarity } from "../../functions/judge/similarity.ts";
import { eloTournament } from "./elo.ts";
import { runVariant } from "./pipeline-run.ts";
import type { EvalSteps } from "./steps.ts";

/** The real steps: the orchestrator's pipeline, the judge function's evaluators, Elo. */
export const defaultSteps: EvalSteps = {
  runVariant,
  judgeRetrieval,
  judgeAnswer,
  judgePairwise,
  answerSimilarity,
  eloTournament,
};
