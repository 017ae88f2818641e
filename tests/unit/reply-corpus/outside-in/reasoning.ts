/**
 * HELD OUT (issue #42). Reasoning models' replies: a draft in
 * `<think>…</think>` (closed, or unclosed at the start when the chat template
 * opened the tag), then a final answer that differs from the draft; and the
 * same answers with the thinking in a provider's separate `reasoning_content`
 * field. Written before the readers changed; never tuned on.
 */
import type { ScoredReply } from "../score.ts";

const think = (draft: string, answer: string) => `<think>\n${draft}\n</think>\n\n${answer}`;
/** Qwen3 / DeepSeek-R1 templates open `<think>` in the prompt: the reply starts inside it. */
const opened = (draft: string, answer: string) => `${draft}\n</think>\n\n${answer}`;

export const reasoningReplies: ScoredReply[] = [
  {
    category: "think: closed",
    reader: "retrieval",
    reply: think(
      "The user asks about the boiling point. The passage mentions water. Score: 2? Wait, it gives the freezing point, not the boiling point. So it is only partly on topic.",
      "Score: 1",
    ),
    expected: 1,
  },
  {
    category: "think: closed",
    reader: "retrieval",
    reply: think(
      'Let me draft: {"reason": "on topic", "score": 2}. Hmm, actually the passage is about a different river entirely.',
      '{"reason": "The passage is about the Danube, not the Rhine.", "score": 0}',
    ),
    expected: 0,
  },
  {
    category: "think: unclosed at start",
    reader: "retrieval",
    reply: opened(
      "Okay, the query is about apt pinning. The document explains apt preferences with Pin-Priority examples. That is directly it. I'd say 2... but it is for an old Debian release. Still relevant.",
      "Relevance: 2",
    ),
    expected: 2,
  },
  {
    category: "think: closed",
    reader: "similarity",
    reply: think(
      "Both answers say the enzyme breaks down starch. Score: 5? The candidate misses the temperature caveat. 4 then. Hmm, and it adds a wrong claim about pH. Maybe 3.",
      "Similarity: 3",
    ),
    expected: 3,
  },
  {
    category: "think: unclosed at start",
    reader: "similarity",
    reply: opened(
      "Draft score: 2/5 since the wording differs a lot. But meaning is what counts, and the meaning is the same.",
      "Score: 4.5",
    ),
    expected: 4.5,
  },
  {
    category: "think: closed",
    reader: "answer",
    reply: think(
      'First pass: {"relevance": 2, "accuracy": 2, "completeness": 2, "precision": 2}. But the date given is 1867 and the documents say 1876. Accuracy must drop. Also one step missing.',
      "Relevance: 2\nAccuracy: 0\nCompleteness: 1\nPrecision: 2",
    ),
    expected: { relevance: 2, accuracy: 0, completeness: 1, precision: 2 },
  },
  {
    category: "think: unclosed at start",
    reader: "answer",
    reply: opened(
      "relevance 2, accuracy 2, completeness 2, precision 1? The answer pads with unrelated history, precision 1 is fair. Completeness: it covers both steps.",
      '```json\n{"relevance": 2, "accuracy": 2, "completeness": 2, "precision": 1, "reasoning": "Correct and complete, some padding."}\n```',
    ),
    expected: { relevance: 2, accuracy: 2, completeness: 2, precision: 1 },
  },
  {
    category: "think: closed",
    reader: "pairwise",
    reply: think(
      "Assistant A is better at first sight, it is longer. [[A]]? No: A's figure is wrong. B is correct and concise.",
      "Assistant B gives the correct figure and cites the source.\n\n[[B]]",
    ),
    expected: "B",
  },
  {
    category: "think: unclosed at start",
    reader: "pairwise",
    reply: opened(
      "Verdict: A would be my first guess. Checking facts... both are right, both complete. It's really a tie.",
      "Both answers are equally good.\n\n[[C]]",
    ),
    expected: "C",
  },
  {
    category: "think: closed",
    reader: "rerank-relevance",
    reply: think(
      "Doc: 1, Relevance: 9\nDoc: 2, Relevance: 8\nDoc 2 repeats Doc 1 but is older. Doc 3 is off topic, I'll leave it out.",
      "Doc: 1, Relevance: 9\nDoc: 2, Relevance: 5",
    ),
    expected: { 1: { final: 9 }, 2: { final: 5 } },
  },
  {
    category: "think: unclosed at start",
    reader: "rerank-relevance",
    reply: opened(
      "Let me score. Doc: 4, Relevance: 2 maybe. Doc: 3, Relevance: 7. Hmm, Doc 4 does mention the flag, so higher.",
      "Doc: 3, Relevance: 7\nDoc: 4, Relevance: 6",
    ),
    expected: { 3: { final: 7 }, 4: { final: 6 } },
  },
  {
    category: "think: closed",
    reader: "rerank-two-turn",
    reply: think(
      "Doc: 1, Relevance: 9, Topicality: 9, Methodological rigor: 5, Practical applicability: 5 — too generous, it is a blog post.",
      "Doc: 1, Relevance: 7, Topicality: 8, Methodological rigor: 2, Practical applicability: 4",
    ),
    expected: {
      1: {
        final: 7,
        relevance: 8,
        criteria: { methodological_rigor: 2, practical_applicability: 4 },
      },
    },
  },
  {
    category: "think: closed",
    reader: "rerank-one-turn",
    reply: think(
      "Doc: 2, Relevance: 10 — no, it's not that deep.",
      "Doc: 2, Relevance: 8, Topicality: 9, Depth: 3, Diversity: 2, Clarity: 4, Authoritativeness: 4, Recency: 3",
    ),
    expected: {
      2: {
        final: 8,
        relevance: 9,
        criteria: { depth: 3, diversity: 2, clarity: 4, authoritativeness: 4, recency: 3 },
      },
    },
  },
  {
    category: "think: closed",
    reader: "variations",
    reply: think(
      "Drafts:\n1. RRF explained\n2. what is rank fusion\nThose are too short. Better ones:",
      "1. reciprocal rank fusion formula\n2. how RRF merges ranked lists\n3. rank fusion constant k",
    ),
    expected: [
      "reciprocal rank fusion formula",
      "how RRF merges ranked lists",
      "rank fusion constant k",
    ],
  },
  {
    category: "think: unclosed at start",
    reader: "variations",
    reply: opened(
      'The user wants search queries. Maybe {"queries": ["rrf", "fusion"]}? Too vague.',
      '{"queries": ["reciprocal rank fusion algorithm", "RRF k=60 constant", "merging BM25 and dense rankings"]}',
    ),
    expected: [
      "reciprocal rank fusion algorithm",
      "RRF k=60 constant",
      "merging BM25 and dense rankings",
    ],
  },
  {
    category: "think: closed",
    reader: "rubric",
    reply: think(
      '{"criteria": [{"name": "Novelty", "definition": "d", "weight": 1}]} is too thin. Two criteria are better.',
      '{"criteria": [{"name": "Methodological Rigor", "definition": "Sound methods.", "weight": 0.6}, {"name": "Recency", "definition": "Recent.", "weight": 0.4}], "relevance": {"definition": "On topic."}, "relevance_threshold": 3}',
    ),
    expected: ["methodological_rigor", "recency"],
  },
  {
    category: "think: closed",
    reader: "item-ranking",
    reply: think(
      "[1] > [2] > [3] > [4] at first. But [3] has the exact answer.",
      "[3] > [1] > [4] > [2]",
    ),
    expected: [3, 1, 4, 2],
  },
  {
    category: "think: unclosed at start",
    reader: "item-selection",
    reply: opened(
      "Passages 1, 2 and 3 look useful. Actually passage 2 is about another version. Drop it.",
      "[1, 3]",
    ),
    expected: [1, 3],
  },
  {
    category: "think: closed",
    reader: "item-pointwise",
    reply: think(
      "Useful: yes — it names the author. But the question is about the year, which is missing.",
      "My judgment: No, the passage does not give the year.",
    ),
    expected: false,
  },
  {
    category: "think: closed",
    reader: "tot-score",
    reply: think("The passage is fluent. I'd give 0.9. Some repetition, though.", "0.85"),
    expected: 0.85,
  },
  {
    category: "think: unclosed at start",
    reader: "tot-score",
    reply: opened("Score: 0.3 — short. But it covers every point, so more.", "Score: 0.7"),
    expected: 0.7,
  },
  {
    category: "think: closed",
    reader: "tot-agent",
    reply: think(
      "Dimensions: lexical, stylistic? The query is about meaning, not wording.",
      "Dimensions: semantic, pragmatic",
    ),
    expected: ["semantic", "pragmatic"],
  },
  {
    category: "thinking tag",
    reader: "retrieval",
    reply:
      "<thinking>\nIt talks about the treaty; Score: 2. No — wrong treaty.\n</thinking>\n\nScore: 0",
    expected: 0,
  },
  {
    category: "reasoning tag",
    reader: "pairwise",
    reply:
      "<reasoning>A is more detailed: [[A]]. But B answers the question that was asked.</reasoning>\n[[B]]",
    expected: "B",
  },
  {
    category: "think: only reasoning, no answer",
    reader: "retrieval",
    reply:
      "<think>\nThe passage gives the year. Score: 2. Let me double-check the name of the treaty",
    expected: null,
  },
  {
    category: "think: only reasoning, no answer",
    reader: "variations",
    reply:
      "<think>\nI should write three queries: 1. RRF formula 2. rank fusion k 3. hybrid search merging",
    expected: null,
  },
  {
    category: "think: empty block",
    reader: "similarity",
    reply: "<think>\n\n</think>\n\nScore: 2",
    expected: 2,
  },
  {
    category: "think: closed",
    reader: "rerank-relevance",
    reply: think(
      "Doc 3 is an ad; I'll leave it out and score only 1, 2 and 4.",
      "Doc: 1, Relevance: 6\nDoc: 2, Relevance: 9\nDoc: 4, Relevance: 3",
    ),
    expected: { 1: { final: 6 }, 2: { final: 9 }, 4: { final: 3 } },
  },
  // ── the same answers with the thinking in `reasoning_content` ──
  {
    category: "reasoning_content field",
    reader: "retrieval",
    reasoning: "Score: 2? The passage gives the freezing point, not the boiling point.",
    reply: "Score: 1",
    expected: 1,
  },
  {
    category: "reasoning_content field",
    reader: "answer",
    reasoning:
      '{"relevance": 2, "accuracy": 2, "completeness": 2, "precision": 2} — but the date is wrong.',
    reply: "Relevance: 2\nAccuracy: 0\nCompleteness: 1\nPrecision: 2",
    expected: { relevance: 2, accuracy: 0, completeness: 1, precision: 2 },
  },
  {
    category: "reasoning_content field",
    reader: "pairwise",
    reasoning: "[[A]] at first sight, but A's figure is wrong.",
    reply: "[[B]]",
    expected: "B",
  },
  {
    category: "reasoning_content field",
    reader: "tot-score",
    reasoning: "I'd give 0.9. Some repetition, though.",
    reply: "0.85",
    expected: 0.85,
  },
  {
    category: "reasoning_content field",
    reader: "variations",
    reasoning: "Drafts: RRF explained; what is rank fusion. Too short.",
    reply:
      "1. reciprocal rank fusion formula\n2. how RRF merges ranked lists\n3. rank fusion constant k",
    expected: [
      "reciprocal rank fusion formula",
      "how RRF merges ranked lists",
      "rank fusion constant k",
    ],
  },
  {
    category: "reasoning_content field",
    reader: "rerank-relevance",
    reasoning: "Doc: 1, Relevance: 9\nDoc: 2, Relevance: 8 — too high for Doc 2.",
    reply: "Doc: 1, Relevance: 9\nDoc: 2, Relevance: 5",
    expected: { 1: { final: 9 }, 2: { final: 5 } },
  },
  {
    category: "reasoning_content field, no answer",
    reader: "similarity",
    reasoning: "The candidate is close to the reference; Score: 4",
    reply: "",
    expected: null,
  },
];
