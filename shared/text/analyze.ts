/**
 * sift's analyzer is the embedded index's: the postings on disk hold its terms,
 * so BM25 here and in the index must stem and drop the same words.
 */
export * from "../../lib/vector-index/analyze.ts";
