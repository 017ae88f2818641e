import type { Rubric } from "../../shared/rerank/rubric.ts";
import type { Discarded } from "../../shared/rerank/score.ts";
import type {
  Readings,
  RerankDocument,
  RerankStrategy,
  Scores,
} from "../../shared/rerank/types.ts";
import type { TotOptions } from "../../shared/rerank/tot/options.ts";
import type {
  ItemIteration,
  ItemOptions,
  ItemStopReason,
} from "../../shared/rerank/item-options.ts";
import type { WeightsOption } from "../../core/rerank/weights.ts";
import type { TotTree } from "./tot/tot.ts";

/* What `rerank` takes and gives, whichever strategy runs (runners.ts). */

export type RerankRequest = {
  query: string;
  documents: RerankDocument[];
  strategy: RerankStrategy;
  top_n?: number | undefined;
  /** For two-turn strategies: use this rubric instead of generating one. */
  rubric?: Rubric | undefined;
  /** Default: 0.5 for a generated rubric's criteria, a given rubric's own weights. */
  weights?: WeightsOption | undefined;
  explain: boolean;
  batch_size: number;
  /** For strategy item: its options (defaults: AR_s, explicit, listwise, m = 3). */
  item?: ItemOptions | undefined;
  /** For strategy tot: pinned dimensions per level and the unit (passage by default). */
  tot?: TotOptions | undefined;
  /** `SOURCE_TRUST`: only documents from these hosts score on authority criteria. */
  trusted_sources?: readonly string[] | undefined;
};

export type RerankResultItem = {
  index: number;
  id?: string;
  /** Equals `scores.final`; null for a document whose batch degraded. */
  relevance_score: number | null;
  scores: (Omit<Scores, "relevance"> & { relevance: number | null }) | null;
  reason?: string;
  degraded?: true;
  /** Strategy tot, sentence unit: the kept sentence and its index among `tree.sentences`. */
  sentence?: string;
  candidate?: number;
};

export type RerankResponse = {
  results: RerankResultItem[];
  discarded: Discarded[];
  rubric?: Rubric;
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
  /** Strategy item: each iteration (pseudo-answer, ranking, utility set) and why it stopped. */
  iterations?: ItemIteration[];
  stop_reason?: ItemStopReason;
  /** Strategy tot: each level's dimensions, thresholds and candidates. */
  tree?: TotTree;
  /** Values asked of the model, and those unreadable after a correction (every LLM strategy). */
  readings?: Readings;
};
