/**
 * HELD OUT (issue #42). Refusals phrased politely without the usual words,
 * which must be no query and no score; query variations written as
 * single-quoted dicts, quoted lines or in another language; a document the
 * reply does not score. Written before the readers changed; never tuned on.
 */
import type { ScoredReply } from "../score.ts";

export const refusalAndQueryReplies: ScoredReply[] = [
  // ── polite refusals, none of the usual words ──
  {
    category: "polite refusal",
    reader: "variations",
    reply:
      "That's not something I'm able to help with. You might try a general web search instead.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "variations",
    reply:
      "Thanks for the question! This falls outside what I can do here, so I'll have to pass on this one.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "variations",
    reply:
      "This request isn't one I'll be generating search queries for.\nHappy to help with something else.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "variations",
    reply: "Lo siento, no puedo ayudar con eso.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "retrieval",
    reply: "That's outside what I can assess here — I'll pass on grading this passage.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "pairwise",
    reply: "Comparing these two isn't something I'm able to do.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "rerank-relevance",
    reply: "Ranking these documents is beyond what I can help with today.",
    expected: {},
  },
  {
    category: "polite refusal",
    reader: "item-selection",
    reply: "I'd rather not choose between these passages.",
    expected: null,
  },
  {
    category: "polite refusal",
    reader: "similarity",
    reply: "Unfortunately that's not a comparison I can make.",
    expected: null,
  },
  // ── query variations in other shapes ──
  {
    category: "python dict queries",
    reader: "variations",
    reply:
      "{'queries': ['reciprocal rank fusion formula', 'RRF constant k', 'merging ranked result lists']}",
    expected: ["reciprocal rank fusion formula", "RRF constant k", "merging ranked result lists"],
  },
  {
    category: "quoted queries",
    reader: "variations",
    reply:
      '1. "reciprocal rank fusion" formula\n2. "RRF" k constant\n3. how "rank fusion" merges lists',
    expected: [
      '"reciprocal rank fusion" formula',
      '"RRF" k constant',
      'how "rank fusion" merges lists',
    ],
  },
  {
    category: "quoted queries",
    reader: "variations",
    reply:
      '- "reciprocal rank fusion formula"\n- "RRF k constant"\n- "rank fusion in hybrid search"',
    expected: ["reciprocal rank fusion formula", "RRF k constant", "rank fusion in hybrid search"],
  },
  {
    category: "queries with a preamble and sign-off",
    reader: "variations",
    reply:
      "Sure, here are three alternative searches:\n\nreciprocal rank fusion formula\nRRF constant k explained\nmerging BM25 and vector rankings\n\nI hope these help you find what you need!",
    expected: [
      "reciprocal rank fusion formula",
      "RRF constant k explained",
      "merging BM25 and vector rankings",
    ],
  },
  {
    category: "queries in another language",
    reader: "variations",
    reply: "1. fusión de rangos recíproca fórmula\n2. RRF constante k\n3. combinar rankings BM25",
    expected: ["fusión de rangos recíproca fórmula", "RRF constante k", "combinar rankings BM25"],
  },
  {
    category: "queries as a yaml list",
    reader: "variations",
    reply:
      "queries:\n  - reciprocal rank fusion formula\n  - RRF constant k\n  - rank fusion hybrid search",
    expected: ["reciprocal rank fusion formula", "RRF constant k", "rank fusion hybrid search"],
  },
  {
    category: "queries in think then answer",
    reader: "variations",
    reply:
      "<think>\n1. rrf\n2. fusion\n</think>\n\n- reciprocal rank fusion formula\n- RRF constant k\n- hybrid search fusion",
    expected: ["reciprocal rank fusion formula", "RRF constant k", "hybrid search fusion"],
  },
  // ── refusals by what they do in judging steps ──
  {
    category: "no usable item",
    reader: "retrieval",
    reply: "Could you share the passage again? It seems to have been cut off.",
    expected: null,
  },
  {
    category: "no usable item",
    reader: "answer",
    reply: "I need the reference documents before I can assess accuracy.",
    expected: null,
  },
  {
    category: "no usable item",
    reader: "tot-score",
    reply: "Could you clarify which dimension you want scored?",
    expected: null,
  },
  // ── unscored documents ──
  {
    category: "unscored document",
    reader: "rerank-relevance",
    reply: "Doc: 1, Relevance: 9\nDoc: 3, Relevance: 5\n(Doc 2 and Doc 4 are duplicates of Doc 1.)",
    expected: { 1: { final: 9 }, 3: { final: 5 } },
  },
  {
    category: "document named in words",
    reader: "rerank-relevance",
    reply: "First document: Relevance: 6\nSecond document: Relevance: 9",
    expected: { 1: { final: 6 }, 2: { final: 9 } },
  },
];
