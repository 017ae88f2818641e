/**
 * HELD OUT (issue #42), a second set written AFTER the readers changed and
 * scored once before any rule was touched for it: new wordings of the same
 * styles, to see whether the reader generalises rather than matches the
 * first set. Never tuned on.
 */
import type { ScoredReply } from "../score.ts";

export const freshReplies: ScoredReply[] = [
  // ── reasoning ──
  {
    category: "think: closed, JSON answer",
    reader: "rerank-relevance",
    reply:
      '<think>\n{"documents": [{"doc": 1, "relevance": 3}]} — no, doc 1 is the best one.\n</think>\n{"documents": [{"doc": 1, "relevance": 9}, {"doc": 2, "relevance": 4}]}',
    expected: { 1: { final: 9, relevance: 9 }, 2: { final: 4, relevance: 4 } },
  },
  {
    category: "think: unclosed at start",
    reader: "item-selection",
    reply: "[1, 2, 3, 4] all look fine? No, [4] is spam.\n</think>\nMy selection: [1], [3]",
    expected: [1, 3],
  },
  {
    category: "think: closed",
    reader: "tot-agent",
    reply:
      "<think>Dimensions: stylistic, structural would be odd here.</think>\nDimensions: lexical, pragmatic",
    expected: ["lexical", "pragmatic"],
  },
  {
    category: "think: closed",
    reader: "item-ranking",
    reply:
      "<think>\n[4] > [3] > [2] > [1]\nHmm, [1] is the source.\n</think>\n\n[1] > [4] > [3] > [2]",
    expected: [1, 4, 3, 2],
  },
  // ── languages ──
  {
    category: "Spanish final label",
    reader: "retrieval",
    reply: "Calificación final: 1",
    expected: 1,
  },
  {
    category: "French label with its words",
    reader: "retrieval",
    reply: "Score de pertinence : 2",
    expected: 2,
  },
  { category: "Italian fraction", reader: "similarity", reply: "Voto: 4/5", expected: 4 },
  { category: "Portuguese final label", reader: "retrieval", reply: "Nota final: 2", expected: 2 },
  { category: "Chinese final label", reader: "retrieval", reply: "最终评分：1", expected: 1 },
  { category: "Japanese final label", reader: "similarity", reply: "最終スコア：2", expected: 2 },
  { category: "Korean final label", reader: "retrieval", reply: "최종 점수: 1", expected: 1 },
  {
    category: "German verdict word",
    reader: "pairwise",
    reply: "Beide Antworten sind gleich gut.\nUrteil: Unentschieden",
    expected: "C",
  },
  {
    category: "Korean yes/no",
    reader: "item-pointwise",
    reply: "유용성: 예 — 연도를 정확히 제시합니다.",
    expected: true,
  },
  {
    category: "Italian document lines",
    reader: "rerank-relevance",
    reply: "Documento 2 - Rilevanza: 8\nDocumento 3 - Rilevanza: 2",
    expected: { 2: { final: 8 }, 3: { final: 2 } },
  },
  // ── notations ──
  {
    category: "boxed fraction",
    reader: "similarity",
    reply: "So the answer is $\\boxed{3/5}$",
    expected: 3,
  },
  { category: "xml tag", reader: "similarity", reply: "<rating>4</rating>", expected: 4 },
  {
    category: "xml tag",
    reader: "pairwise",
    reply: "<final_answer>B</final_answer>",
    expected: "B",
  },
  {
    category: "python dict with None",
    reader: "retrieval",
    reply: "{'score': 1, 'notes': None}",
    expected: 1,
  },
  {
    category: "bare keys",
    reader: "retrieval",
    reply: "{score: 1, reason: 'partly'}",
    expected: 1,
  },
  { category: "decimal comma", reader: "tot-score", reply: "Bewertung: 0,45", expected: 0.45 },
  { category: "grade word", reader: "similarity", reply: "Similarity: perfect", expected: 5 },
  {
    category: "document name",
    reader: "rerank-relevance",
    reply: "Passage #3 (Arch wiki) — Relevance: 7\nPassage #1 (man page) — Relevance: 9",
    expected: { 3: { final: 7 }, 1: { final: 9 } },
  },
  // ── revisions ──
  {
    category: "prose revision",
    reader: "retrieval",
    reply: "Score: 2\nThough it never names the version, so I'll knock it down to 1.",
    expected: 1,
  },
  {
    category: "prose revision",
    reader: "similarity",
    reply: "Score: 3. The extra example matches the reference too; bump it up to 4.",
    expected: 4,
  },
  {
    category: "prose revision",
    reader: "answer",
    reply:
      "Relevance: 2\nAccuracy: 1\nCompleteness: 1\nPrecision: 2\nActually the figure is right after all — I'd raise accuracy to 2.",
    expected: { relevance: 2, accuracy: 2, completeness: 1, precision: 2 },
  },
  {
    category: "conditional verdict",
    reader: "pairwise",
    reply:
      "In a context where brevity matters, Assistant A might be preferable, but overall [[B]].\nHad the user asked for a summary, [[A]] would win.",
    expected: "B",
  },
  {
    category: "conditional score",
    reader: "retrieval",
    reply: "Relevance: 0. It would be a 2 if the question were about Python 2.",
    expected: 0,
  },
  {
    category: "duplicated line",
    reader: "rerank-two-turn",
    reply:
      "Doc: 1, Relevance: 6, Topicality: 7, Methodological rigor: 3, Practical applicability: 3\nDoc: 1, Relevance: 8, Topicality: 8, Methodological rigor: 4, Practical applicability: 4",
    expected: {
      1: {
        final: 8,
        relevance: 8,
        criteria: { methodological_rigor: 4, practical_applicability: 4 },
      },
    },
  },
  // ── refusals and queries ──
  {
    category: "polite refusal",
    reader: "variations",
    reply: "Apologies — writing alternative search phrasings isn't something I do.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "variations",
    reply: "Je ne peux pas vous aider avec cela.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "variations",
    reply: "申し訳ありませんが、お手伝いできません。",
    expected: null,
  },
  {
    category: "single-quoted queries",
    reader: "variations",
    reply: "- 'reciprocal rank fusion'\n- 'RRF k parameter'\n- 'fusing BM25 with embeddings'",
    expected: ["reciprocal rank fusion", "RRF k parameter", "fusing BM25 with embeddings"],
  },
  {
    category: "queries in a python list",
    reader: "variations",
    reply: "['reciprocal rank fusion', 'RRF k parameter', 'rank fusion hybrid']",
    expected: ["reciprocal rank fusion", "RRF k parameter", "rank fusion hybrid"],
  },
  {
    category: "no usable item",
    reader: "similarity",
    reply: "Both texts are about enzymes.",
    expected: null,
  },
  // ── shapes from public model cards and reasoning-parser issues, added after the first score ──
  {
    category: "Prometheus [RESULT]",
    reader: "similarity",
    reply:
      "Feedback: The response conveys the same cause and effect as the reference but omits the dosage caveat. [RESULT] 4",
    expected: 4,
  },
  {
    category: "MT-Bench rating",
    reader: "similarity",
    reply: "The candidate restates the reference faithfully.\n\nRating: [[5]]",
    expected: 5,
  },
  {
    category: "Selene result label",
    reader: "retrieval",
    reply: "**Reasoning:** The passage names the treaty and its year.\n\n**Result:** 2",
    expected: 2,
  },
  {
    category: "JSON result key",
    reader: "similarity",
    reply: '{"feedback": "Same meaning, one example lost.", "result": 3}',
    expected: 3,
  },
  {
    category: "reasoning with no tag at all",
    reader: "retrieval",
    reply:
      "Okay, so I need to figure out whether the passage answers the question. It mentions the treaty, maybe a 2... but not the year.\n\n**Score: 1**",
    expected: 1,
  },
  {
    category: "reasoning parser put the answer in reasoning_content",
    reader: "retrieval",
    reasoning: "Score: 2",
    reply: "",
    expected: null,
  },
  {
    category: "think: empty block, JSON answer",
    reader: "retrieval",
    reply: '<think>\n\n</think>\n\n{"reason": "on topic", "score": 2}',
    expected: 2,
  },
  {
    category: "boxed final answer heading",
    reader: "pairwise",
    reply: "Assistant B is correct on the date.\n\n**Final Answer**\n\\boxed{B}",
    expected: "B",
  },
];
