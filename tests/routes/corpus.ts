/** A small corpus on distinct topics, so each question has one right document. */
export const CORPUS = [
  {
    id: "rrf",
    title: "Reciprocal rank fusion",
    published: "2009-07-19",
    metadata: { topic: "fusion", year: 2009 },
    text: "Reciprocal rank fusion merges several rankings into one. Each document scores the sum " +
      "of one divided by k plus its rank in every ranking, with k equal to 60.",
  },
  {
    id: "bm25",
    title: "Okapi BM25",
    published: "1994-11-01",
    metadata: { topic: "sparse", year: 1994 },
    text: "Okapi BM25 scores a document by the terms it shares with the query. Term frequency " +
      "saturates through k1 and long documents are normalized through b.",
  },
  {
    id: "volcano",
    title: "Volcanoes",
    published: "2020-03-03",
    metadata: { topic: "geology", year: 2020 },
    text: "A volcano is a rupture in the crust of a planet where lava, ash and gases escape. " +
      "Magma chambers below the surface feed the eruptions.",
  },
];

/** Many distinct words: cut with `size: 16, overlap: 0` this gives four chunks. */
export const LONG_TEXT = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
