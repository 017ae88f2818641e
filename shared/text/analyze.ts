/**
 * sift's analyzer is the embedded index's: the postings on disk hold its terms,
 * so BM25 here and in the index must stem and drop the same words.
 */
export { analyze, stem, STOP_WORDS, words } from "../../lib/vector-index/mod.ts";
