/** Request limits, stated in docs/limits-and-safety.md; every route validates against these. */
export const LIMITS = {
  queryChars: 2_000,
  documentsPerIngest: 100,
  documentChars: 2_000_000,
  ingestBodyBytes: 16 * 1024 * 1024,
  bodyBytes: 1024 * 1024,
  embeddingInputs: 2048,
  embeddingInputChars: 32_000,
  answerDocuments: 50,
  answerDocumentChars: 100_000,
  topK: 100,
  queryVariations: 10,
  fuseRankings: 50,
  fuseRankingLength: 1000,
  rerankDocuments: 1000,
  rerankDocumentChars: 100_000,
  rerankBatchSize: 50,
} as const;
