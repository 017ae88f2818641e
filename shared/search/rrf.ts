/** Reciprocal rank fusion lives with the embedded index, whose hybrid search uses it too. */
export { DEFAULT_RRF_K, type FusedItem, reciprocalRankFusion } from "../../lib/vector-index/mod.ts";
