import type { Pipeline } from "../../shared/pipeline.ts";
import type {
  AnswerEvaluation,
  JudgeDocument,
  PairwiseEvaluation,
  RetrievalEvaluation,
  RetrievalJudgment,
  SimilarityEvaluation,
  Verdict,
} from "../../shared/judge/types.ts";
import type { Deps } from "../../shared/deps.ts";
import type { EloRating, VariantRun } from "./types.ts";

export type TournamentGame = { a: string; b: string; winner: Verdict };

export type TournamentOptions = {
  tournaments?: number;
  k?: number;
  initial?: number;
  seed?: number;
};

/**
 * What one call carries besides its input: the cache scope of a repeated
 * run (`repeat-<n>`), so its model calls are made again rather than served
 * the first run's cached replies.
 */
export type StepCall = { cacheScope?: string | undefined };

/**
 * The work an evaluation is made of, as plain functions. `runEvaluation`
 * uses the real ones (`defaultSteps`); tests pass fakes that record calls.
 */
export type EvalSteps = {
  runVariant(
    deps: Deps,
    input: { query: string; pipeline: Pipeline },
    signal?: AbortSignal,
    call?: StepCall,
  ): Promise<VariantRun>;
  judgeRetrieval(
    deps: Deps,
    input: { query: string; documents: JudgeDocument[] },
    signal?: AbortSignal,
    call?: StepCall,
  ): Promise<RetrievalEvaluation>;
  judgeAnswer(
    deps: Deps,
    input: {
      query: string;
      answer: string;
      documents: JudgeDocument[];
      judgments?: RetrievalJudgment[];
    },
    signal?: AbortSignal,
    call?: StepCall,
  ): Promise<AnswerEvaluation>;
  judgePairwise(
    deps: Deps,
    input: {
      query: string;
      answer_a: string;
      answer_b: string;
      documents?: JudgeDocument[];
      judgments?: RetrievalJudgment[];
    },
    signal?: AbortSignal,
    call?: StepCall,
  ): Promise<PairwiseEvaluation>;
  answerSimilarity(
    deps: Deps,
    input: { query?: string; answer: string; reference: string },
    signal?: AbortSignal,
    call?: StepCall,
  ): Promise<SimilarityEvaluation>;
  eloTournament(
    games: TournamentGame[],
    options?: TournamentOptions,
  ): { ratings: EloRating[] };
};
