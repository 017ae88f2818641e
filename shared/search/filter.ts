/** Metadata filters are matched by the embedded index; sift's other indexes match the same way. */
export * from "../../lib/vector-index/filter.ts";
