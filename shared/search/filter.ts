/** Metadata filters are matched by the embedded index; sift's other indexes match the same way. */
export { matchesFilter } from "../../lib/vector-index/mod.ts";
