/**
 * Hand-written documents for rerank tests: some answer the question from
 * different angles and sources, some are off-topic, so a reranker has
 * something to keep, something to order and something to discard. Twelve of
 * them make two batches of ten.
 */
export const RERANK_QUERY = "How does BM25 rank documents compared with dense retrieval?";

export type RerankTestDocument = {
  id: string;
  text: string;
  metadata: { title: string; source: string; published: string; authors?: string[] };
};

export const RERANK_DOCUMENTS: RerankTestDocument[] = [
  {
    id: "bm25-paper",
    text: "BM25 ranks documents by summing, for each query term, its inverse document frequency " +
      "times a saturated term frequency, with k1 = 1.2 and b = 0.75 normalizing for length [3]. " +
      "However, dense retrieval ranks documents by embedding similarity, whereas BM25 needs no " +
      "training data. Compared with dense retrieval, BM25 is stronger on rare exact terms.",
    metadata: {
      title: "The Probabilistic Relevance Framework: BM25 and Beyond",
      source: "arxiv.org",
      published: "2024-02-01",
      authors: ["S. Robertson", "H. Zaragoza"],
    },
  },
  {
    id: "cats",
    text: "Cats sleep for most of the day and hunt at dusk. They groom themselves often.",
    metadata: { title: "Cats", source: "pets.example", published: "2021-05-01" },
  },
  {
    id: "dense-survey",
    text: "Dense retrieval encodes queries and documents as vectors and ranks documents by dot " +
      "product. Compared with BM25, dense retrieval matches paraphrases; on the other hand it " +
      "needs training data and can miss rare terms. Hybrid systems combine both rankings.",
    metadata: {
      title: "Dense Passage Retrieval: a survey",
      source: "doi.org",
      published: "2023-09-12",
      authors: ["V. Karpukhin"],
    },
  },
  {
    id: "sourdough",
    text: "Sourdough bread rises with wild yeast. Feed the starter flour and water every day.",
    metadata: { title: "Baking sourdough", source: "kitchen.example", published: "2019-01-01" },
  },
  {
    id: "bm25-blog",
    text: "BM25 is a ranking function. It ranks documents with term frequency. It is fast.",
    metadata: { title: "Ranking notes", source: "blog.example", published: "2012-06-01" },
  },
  {
    id: "tides",
    text: "Tides follow the moon. Spring tides come at new and full moon, neap tides between.",
    metadata: { title: "Tides", source: "sea.example", published: "2015-03-03" },
  },
  {
    id: "splade",
    text:
      "Learned sparse retrieval such as SPLADE expands documents with related terms and ranks " +
      "them with an inverted index like BM25, while dense retrieval uses approximate nearest " +
      "neighbour search. Benchmarks such as BEIR report BM25 as a strong zero-shot baseline.",
    metadata: {
      title: "Sparse or dense? Retrieval in 2025",
      source: "research.example.edu",
      published: "2025-01-20",
      authors: ["T. Formal"],
    },
  },
  {
    id: "volcano",
    text: "A volcano is a rupture in the crust where lava, ash and gases escape from magma below.",
    metadata: { title: "Volcanoes", source: "geo.example", published: "2020-03-03" },
  },
  {
    id: "tfidf",
    text: "TF-IDF weighs a term by its frequency in a document and its rarity in the collection; " +
      "BM25 refines it with saturation and document length normalization.",
    metadata: {
      title: "From TF-IDF to BM25",
      source: "course.example.edu",
      published: "2008-10-10",
    },
  },
  {
    id: "chess",
    text: "In chess, the queen's gambit offers a pawn for control of the centre.",
    metadata: { title: "Chess openings", source: "games.example", published: "2018-08-08" },
  },
  {
    id: "hybrid",
    text: "Hybrid search fuses the BM25 ranking and the dense retrieval ranking with reciprocal " +
      "rank fusion, so documents found by both rank first.",
    metadata: { title: "Hybrid search", source: "docs.example", published: "2024-11-05" },
  },
  {
    id: "gardening",
    text: "Tomatoes need full sun, deep watering and a stake to climb.",
    metadata: { title: "Growing tomatoes", source: "garden.example", published: "2022-04-04" },
  },
];

/**
 * A corpus document as `POST /v1/documents` takes it: title, published and
 * authors are fields of their own; `source` is not an ingest field (the
 * route refuses unknown fields) and stays out, as it always did.
 */
export function ingestable({ id, text, metadata }: (typeof RERANK_DOCUMENTS)[number]) {
  const { source: _source, ...fields } = metadata;
  return { id, text, ...fields };
}
