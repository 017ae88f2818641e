/** Reciprocal rank fusion lives with the embedded index, whose hybrid search uses it too. */
export * from "../../lib/vector-index/rrf.ts";
