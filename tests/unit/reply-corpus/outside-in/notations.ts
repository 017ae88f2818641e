/**
 * HELD OUT (issue #42). Shapes real models use for a value and for a
 * document's name: `\boxed{2}` (math-tuned models), `<score>2</score>` and
 * other XML-ish tags (Anthropic-style prompts), single-quoted Python dicts,
 * decimal commas, grades as words, `Document #2`, `Passage 2 (dpkg)`,
 * `[Doc 2]`, a bare `Rating: 0.`, YAML-ish lines, Markdown tables. Written
 * before the readers changed; never tuned on.
 */
import type { ScoredReply } from "../score.ts";

export const notationReplies: ScoredReply[] = [
  // ── \boxed{} ──
  {
    category: "boxed",
    reader: "retrieval",
    reply: "The passage states the date directly.\n\nThe final answer is $\\boxed{2}$.",
    expected: 2,
  },
  { category: "boxed", reader: "similarity", reply: "\\boxed{4}", expected: 4 },
  {
    category: "boxed",
    reader: "tot-score",
    reply: "Weighing fluency and coverage: $$\\boxed{0.8}$$",
    expected: 0.8,
  },
  {
    category: "boxed",
    reader: "pairwise",
    reply: "Assistant A has the correct derivation.\n\\boxed{A}",
    expected: "A",
  },
  {
    category: "boxed",
    reader: "item-pointwise",
    reply: "The passage gives the figure asked for. \\boxed{\\text{Yes}}",
    expected: true,
  },
  // ── XML-ish tags ──
  {
    category: "xml tag",
    reader: "retrieval",
    reply: "<reason>The passage names the treaty and the year.</reason>\n<score>2</score>",
    expected: 2,
  },
  {
    category: "xml tag",
    reader: "similarity",
    reply: "<analysis>Same claim, one example missing.</analysis>\n<similarity>4</similarity>",
    expected: 4,
  },
  {
    category: "xml tag",
    reader: "pairwise",
    reply: "<explanation>B is correct; A misstates the year.</explanation>\n<verdict>B</verdict>",
    expected: "B",
  },
  {
    category: "xml tag",
    reader: "answer",
    reply:
      "<relevance>2</relevance>\n<accuracy>1</accuracy>\n<completeness>2</completeness>\n<precision>1</precision>",
    expected: { relevance: 2, accuracy: 1, completeness: 2, precision: 1 },
  },
  {
    category: "xml tag",
    reader: "tot-score",
    reply: "<score>0.55</score>",
    expected: 0.55,
  },
  {
    category: "xml tag",
    reader: "item-pointwise",
    reply: "<answer>no</answer>",
    expected: false,
  },
  {
    category: "xml tag",
    reader: "retrieval",
    reply: "<answer>\nRelevance: 1\n</answer>",
    expected: 1,
  },
  {
    category: "xml tag",
    reader: "variations",
    reply:
      "<queries>\n<query>reciprocal rank fusion formula</query>\n<query>RRF constant k</query>\n<query>merging ranked lists</query>\n</queries>",
    expected: ["reciprocal rank fusion formula", "RRF constant k", "merging ranked lists"],
  },
  // ── single-quoted Python dicts ──
  {
    category: "python dict",
    reader: "retrieval",
    reply: "{'reason': 'On topic and gives the year.', 'score': 2}",
    expected: 2,
  },
  {
    category: "python dict",
    reader: "similarity",
    reply: "```python\n{'score': 3.5, 'reason': \"It's close but misses the caveat.\"}\n```",
    expected: 3.5,
  },
  {
    category: "python dict",
    reader: "answer",
    reply: "{'relevance': 2, 'accuracy': 1, 'completeness': 1, 'precision': 2}",
    expected: { relevance: 2, accuracy: 1, completeness: 1, precision: 2 },
  },
  {
    category: "python dict",
    reader: "pairwise",
    reply: "{'verdict': 'A', 'reasoning': 'A is correct.'}",
    expected: "A",
  },
  {
    category: "python dict",
    reader: "item-pointwise",
    reply: "{'useful': True}",
    expected: true,
  },
  {
    category: "python dict",
    reader: "rerank-relevance",
    reply: "{'documents': [{'doc': 1, 'relevance': 7}, {'doc': 3, 'relevance': 2}]}",
    expected: { 1: { final: 7, relevance: 7 }, 3: { final: 2, relevance: 2 } },
  },
  {
    category: "python dict",
    reader: "item-ranking",
    reply: "{'ranking': [2, 4, 1, 3]}",
    expected: [2, 4, 1, 3],
  },
  {
    category: "python dict",
    reader: "item-selection",
    reply: "{'useful': [1, 4]}",
    expected: [1, 4],
  },
  {
    category: "python dict",
    reader: "tot-agent",
    reply: "{'dimensions': ['semantic', 'lexical']}",
    expected: ["semantic", "lexical"],
  },
  {
    category: "python dict",
    reader: "rubric",
    reply:
      "{'criteria': [{'name': 'Source Credibility', 'definition': 'Who published it.', 'weight': 0.5}, {'name': 'Recency', 'definition': 'How recent.', 'weight': 0.5}], 'relevance': {'definition': 'On topic.'}, 'relevance_threshold': 3}",
    expected: ["source_credibility", "recency"],
  },
  // ── decimal commas ──
  { category: "decimal comma", reader: "similarity", reply: "Score: 3,5", expected: 3.5 },
  {
    category: "decimal comma",
    reader: "rerank-relevance",
    reply: "Doc: 1, Relevance: 7,5\nDoc: 2, Relevance: 4",
    expected: { 1: { final: 7.5 }, 2: { final: 4 } },
  },
  {
    category: "decimal comma",
    reader: "similarity",
    reply: "Ich würde 4,5 von 5 geben.",
    expected: 4.5,
  },
  // ── grades as words ──
  { category: "grade word", reader: "retrieval", reply: "Relevance: excellent", expected: 2 },
  { category: "grade word", reader: "retrieval", reply: "Score: zero", expected: 0 },
  { category: "grade word", reader: "similarity", reply: "Similarity: five", expected: 5 },
  { category: "grade word", reader: "retrieval", reply: "Relevance: none", expected: 0 },
  {
    category: "grade word",
    reader: "retrieval",
    reply: "Relevance: good",
    expected: null,
  },
  // ── a bare `Rating: 0.` ──
  { category: "bare rating", reader: "retrieval", reply: "Rating: 0.", expected: 0 },
  { category: "bare rating", reader: "similarity", reply: "Rating: 3.", expected: 3 },
  {
    category: "bare rating",
    reader: "retrieval",
    reply: "The passage is about a different product.\nRating: 0.",
    expected: 0,
  },
  // ── document names ──
  {
    category: "document name",
    reader: "rerank-relevance",
    reply: "Document #2: Relevance: 8\nDocument #4: Relevance: 3",
    expected: { 2: { final: 8 }, 4: { final: 3 } },
  },
  {
    category: "document name",
    reader: "rerank-relevance",
    reply: "Passage 2 (dpkg): Relevance: 9\nPassage 1 (apt-get): Relevance: 6",
    expected: { 2: { final: 9 }, 1: { final: 6 } },
  },
  {
    category: "document name",
    reader: "rerank-relevance",
    reply: "[Doc 2] Relevance: 7\n[Doc 3] Relevance: 1",
    expected: { 2: { final: 7 }, 3: { final: 1 } },
  },
  {
    category: "document name",
    reader: "rerank-relevance",
    reply: "Doc #1 — Relevance: 5\nDoc #2 — Relevance: 8",
    expected: { 1: { final: 5 }, 2: { final: 8 } },
  },
  {
    category: "document name",
    reader: "rerank-two-turn",
    reply:
      "Passage 3 (Debian wiki): Relevance: 8, Topicality: 9, Methodological Rigor: 3, Practical Applicability: 5",
    expected: {
      3: {
        final: 8,
        relevance: 9,
        criteria: { methodological_rigor: 3, practical_applicability: 5 },
      },
    },
  },
  {
    category: "document name",
    reader: "item-ranking",
    reply: "Document #3 > Document #1 > Document #2 > Document #4",
    expected: [3, 1, 2, 4],
  },
  {
    category: "document name",
    reader: "item-selection",
    reply: "Useful: [Doc 2], [Doc 5]",
    expected: [2, 5],
  },
  // ── YAML-ish lines and tables ──
  {
    category: "yaml lines",
    reader: "answer",
    reply:
      "relevance: 2\naccuracy: 2\ncompleteness: 1\nprecision: 1\nreasoning: >\n  Correct but thin.",
    expected: { relevance: 2, accuracy: 2, completeness: 1, precision: 1 },
  },
  {
    category: "yaml lines",
    reader: "rerank-relevance",
    reply: "- doc: 1\n  relevance: 8\n- doc: 2\n  relevance: 3",
    expected: { 1: { final: 8 }, 2: { final: 3 } },
  },
  {
    category: "markdown table",
    reader: "answer",
    reply:
      "| Criterion | Score |\n|---|---|\n| Relevance | 2 |\n| Accuracy | 1 |\n| Completeness | 2 |\n| Precision | 2 |",
    expected: { relevance: 2, accuracy: 1, completeness: 2, precision: 2 },
  },
  {
    category: "markdown table",
    reader: "rerank-relevance",
    reply: "| Passage | Score |\n|:--|:--:|\n| Passage 1 | 6 |\n| Passage 3 | 9 |",
    expected: { 1: { final: 6 }, 3: { final: 9 } },
  },
];
