/** A document to rerank: its text and the metadata the criteria may depend on. */
export type RerankDocument = {
  id?: string | undefined;
  text: string;
  metadata?: Record<string, unknown> | undefined;
};

export type Scores = {
  relevance: number;
  criteria: Record<string, number>;
  final: number;
};

/** One document's judgment as parsed from a model's output, before filtering. */
export type Judgment = {
  /** Position in the batch, from 0. */
  position: number;
  /** Relevance 0-10; `undefined` when the model wrote only a final score (text mode). */
  relevance?: number | undefined;
  criteria: Record<string, number>;
  /** The final score the model wrote (text mode); code recomputes it when it can. */
  statedFinal?: number | undefined;
  reason?: string | undefined;
  /**
   * The model named the document but its score could not be read
   * (`Relevance: high`): no score, so it keeps its retrieval order, degraded,
   * rather than being discarded as "not ranked".
   */
  unreadable?: true;
  /**
   * The model said to leave the document out ("Doc 3 does not help at all;
   * please ignore it"): it is dropped from the ranking, whatever score a line gave it.
   */
  dropped?: true;
  /** The reply scored the document twice, differently: the last stated score stands. */
  revised?: true;
};

/** sift's own strategies' names; `strategies.ts` declares what each takes. */
export type RerankStrategy =
  | "one-turn"
  | "two-turn"
  | "relevance"
  | "two-turn-relevance"
  | "none"
  /** ITEM's iterative utility judgments (paper 002): `functions/rerank/item/`. */
  | "item"
  /** ToT-RAG's two-level tree of evaluation dimensions (paper 003): `functions/rerank/tot/`. */
  | "tot";

/**
 * What a rerank read from its model's replies: the values it asked for
 * (document scores, ToT scores, ITEM judgments) and how many stayed
 * unreadable after one correction turn. The evaluation's degraded share
 * counts these beside the judges' (docs/model-replies.md).
 */
export type Readings = { asked: number; unreadable: number };

/** Documents per rerank prompt when a request says nothing (REBEL scores in batches of 10). */
export const DEFAULT_BATCH_SIZE = 10;
