/**
 * A cross-encoder reranker (Workers AI's `@cf/baai/bge-reranker-base`): one
 * call scores every (query, passage) pair. The port the rerank function uses;
 * providers implement it.
 */
export type CrossEncoded = {
  /** Every passage, best first: its index in the input and the model's score. */
  ranked: { index: number; score: number }[];
  /** Input tokens, counted on our side (the model reports none): for cost, an estimate. */
  tokensIn: number;
};

export type CrossEncoder = {
  model: string;
  /** `gen_ai.provider.name` on its spans. */
  provider: string;
  rank(query: string, texts: readonly string[], signal?: AbortSignal): Promise<CrossEncoded>;
};

/** Cross-encoder models sift knows, as `model` names them on `/v2/rerank` and `/v1/rerank`. */
export const CROSS_ENCODER_MODELS = ["@cf/baai/bge-reranker-base"] as const;
export type CrossEncoderModel = (typeof CROSS_ENCODER_MODELS)[number];

export function isCrossEncoderModel(model: string): model is CrossEncoderModel {
  return (CROSS_ENCODER_MODELS as readonly string[]).includes(model);
}

/**
 * A score in [0, 1] for Cohere's `relevance_score`: the model's own when all
 * of them already are, else the logistic of each (the model card maps its
 * raw scores through a sigmoid). Either way the order is the model's.
 */
export function unitScores(scores: readonly number[]): number[] {
  if (scores.every((score) => score >= 0 && score <= 1)) return [...scores];
  return scores.map((score) => 1 / (1 + Math.exp(-score)));
}
