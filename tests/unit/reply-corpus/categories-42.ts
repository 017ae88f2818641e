import type { ScoredReply } from "./score.ts";

/**
 * Issue #42's rules, in wording of our own (the outside-in corpus keeps its
 * own and is never tuned on): thinking set aside, labels of other
 * languages, values in notations, structured text that is not JSON,
 * revisions in prose, conditionals, refusals by what they do.
 */
export const issue42Replies: ScoredReply[] = [
  {
    category: "thinking set aside",
    reader: "similarity",
    reply: "<think>Score: 1 — too harsh?</think>Score: 3",
    expected: 3,
  },
  {
    category: "thinking set aside",
    reader: "pairwise",
    reply: "B seems right... [[B]]? No, A cites the law.\n</think>\n[[A]]",
    expected: "A",
  },
  {
    category: "thinking set aside",
    reader: "tot-score",
    reply: "<reasoning>0.2 at most</reasoning>0.4",
    expected: 0.4,
  },
  { category: "thinking only", reader: "similarity", reply: "<thinking>Score: 4", expected: null },
  {
    category: "label of another language",
    reader: "similarity",
    reply: "Punteggio finale: 4,5",
    expected: 4.5,
  },
  { category: "label of another language", reader: "retrieval", reply: "得分：0", expected: 0 },
  {
    category: "label of another language",
    reader: "answer",
    reply: "Rilevanza: 1\nAccuratezza: 2\nCompletezza: 1\nPrecisione: 0",
    expected: { relevance: 1, accuracy: 2, completeness: 1, precision: 0 },
  },
  {
    category: "label of another language",
    reader: "item-pointwise",
    reply: "Utile : oui",
    expected: true,
  },
  {
    category: "label of another language",
    reader: "rerank-relevance",
    reply: "Dokument 2, Relevanz: 5\nAbschnitt 4, Relevanz: 9",
    expected: { 2: { final: 5 }, 4: { final: 9 } },
  },
  {
    category: "English note is no label",
    reader: "retrieval",
    reply: "Note: the passage quotes the statute.\nScore: 2",
    expected: 2,
  },
  { category: "notation", reader: "retrieval", reply: "$\\boxed{1}$", expected: 1 },
  {
    category: "notation",
    reader: "answer",
    reply:
      "<Relevance>1</Relevance><Accuracy>1</Accuracy><Completeness>0</Completeness><Precision>2</Precision>",
    expected: { relevance: 1, accuracy: 1, completeness: 0, precision: 2 },
  },
  {
    category: "notation",
    reader: "retrieval",
    reply: "The passage is <b>directly</b> on topic.\n<grade>2</grade>",
    expected: 2,
  },
  {
    category: "structured text",
    reader: "similarity",
    reply: "{'reason': 'same meaning', 'score': 4,}",
    expected: 4,
  },
  {
    category: "structured text",
    reader: "item-pointwise",
    reply: "{useful: false}",
    expected: false,
  },
  {
    category: "structured text",
    reader: "rerank-relevance",
    reply: "- doc: 3\n  relevance: 6\n- doc: 4\n  relevance: 2",
    expected: { 3: { final: 6 }, 4: { final: 2 } },
  },
  {
    category: "revision in prose",
    reader: "retrieval",
    reply: "Score: 0. Then again it does define the term, so I'd change that to 1.",
    expected: 1,
  },
  {
    category: "revision in prose",
    reader: "tot-score",
    reply: "0.8 — a bit generous; make it 0.6.",
    expected: 0.6,
  },
  {
    category: "revision in prose",
    reader: "answer",
    reply:
      '{"relevance": 1, "accuracy": 1, "completeness": 1, "precision": 1}\nPS: precision should be 2, nothing is padded.',
    expected: { relevance: 1, accuracy: 1, completeness: 1, precision: 2 },
  },
  {
    category: "revision in prose",
    reader: "rerank-relevance",
    reply: "Doc: 3, Relevance: 2\nDoc: 1, Relevance: 5\nDoc 3 merits a 7 on a second look.",
    expected: { 3: { final: 7 }, 1: { final: 5 } },
  },
  {
    category: "revision off the scale",
    reader: "retrieval",
    reply: "Score: 1, though it should be 5.",
    expected: null,
  },
  {
    category: "conditional never overrides",
    reader: "similarity",
    reply: "Score: 2\nUnless the reference is wrong, in which case it would be a 4.",
    expected: 2,
  },
  {
    category: "conditional never overrides",
    reader: "pairwise",
    reply: "[[A]]. If speed were all that mattered, [[B]].",
    expected: "A",
  },
  {
    category: "conditional alone",
    reader: "pairwise",
    reply: "My verdict would be [[B]].",
    expected: "B",
  },
  {
    category: "refusal by what it does",
    reader: "variations",
    reply: "Sadly this one is beyond me.\nMaybe ask a librarian!",
    expected: null,
  },
  {
    category: "refusal by what it does",
    reader: "variations",
    reply: "Ich kann dabei leider nicht helfen.",
    expected: null,
  },
  {
    category: "queries kept",
    reader: "variations",
    reply: "rrf vs borda count\nreciprocal rank fusion k=60\nwhy does RRF work?",
    expected: ["rrf vs borda count", "reciprocal rank fusion k=60", "why does RRF work?"],
  },
  {
    category: "quoted query",
    reader: "variations",
    reply: "1. \"rank fusion\" hybrid\n2. 'RRF' explained",
    expected: ['"rank fusion" hybrid', "'RRF' explained"],
  },
  {
    category: "bracketed label or value",
    reader: "retrieval",
    reply: "The passage is on another topic. [SCORE] 0",
    expected: 0,
  },
  {
    category: "bracketed label or value",
    reader: "similarity",
    reply: "Similarity: [[3]]",
    expected: 3,
  },
  { category: "result label", reader: "retrieval", reply: "Résultat : 1", expected: 1 },
  { category: "result label", reader: "similarity", reply: '{"result": 2.5}', expected: 2.5 },
  {
    category: "bracketed identifiers stay",
    reader: "item-ranking",
    reply: "[[2]] > [[1]]",
    expected: [2, 1],
  },
];
