import type { CorpusReply } from "./types.ts";

/**
 * RankGPT-style ranking replies over 4 passages shown as [1]…[4], as the
 * identifiers written (1-based, in order); the reader appends the rest.
 */
export const rankingReplies: CorpusReply<number[]>[] = [
  { style: "the format", reply: "[2] > [4] > [1] > [3]", expected: [2, 4, 1, 3] },
  {
    style: "preamble, fence and bold",
    reply: "Sure, here is the ranking:\n```\n**[3]** > [1] > [2] > [4]\n```",
    expected: [3, 1, 2, 4],
  },
  { style: "bare chain", reply: "Ranking: 4 > 3 > 2 > 1", expected: [4, 3, 2, 1] },
  {
    style: "passages named",
    reply: "Passage 2 > Passage 1 > Passage 4 > Passage 3",
    expected: [2, 1, 4, 3],
  },
  {
    style: "a draft, then the final ranking",
    reply: "Draft: [1] > [2] > [3] > [4]\nOn reflection:\nFinal ranking: [4] > [2] > [1] > [3]",
    expected: [4, 2, 1, 3],
  },
  {
    style: "numbered list of identifiers",
    reply: "1. [3]\n2. [2]\n3. [4]\n4. [1]",
    expected: [3, 2, 4, 1],
  },
  {
    style: "a partial ranking with a repeat and an out-of-range identifier",
    reply: "[2] > [2] > [9] > [1]",
    expected: [2, 1],
  },
  { style: "comma list", reply: "My ranking: [3], [4], [1], [2]", expected: [3, 4, 1, 2] },
  {
    style: "JSON in a fence",
    reply: '```json\n{"ranking": [4, 1, 3, 2]}\n```',
    expected: [4, 1, 3, 2],
  },
  {
    style: "a chain with a closing remark citing passages",
    reply: "[1] > [3] > [2] > [4]\nPassage [1] states the date, unlike [4].",
    expected: [1, 3, 2, 4],
  },
  {
    style: "identifiers cited in prose only",
    reply: "The best is [2], since it cites [1] and agrees with [3].",
    expected: null,
  },
  { style: "no identifiers", reply: "I cannot rank these passages.", expected: null },
];

/** ITEM's utility selection over 5 passages: identifiers written; `[]` an explicit none. */
export const selectionReplies: CorpusReply<number[]>[] = [
  { style: "ITEM's format", reply: "My selection: [2] > [5]", expected: [2, 5] },
  { style: "ITEM's list form", reply: "My selection: [2, 3, 5].", expected: [2, 3, 5] },
  { style: "nested lists", reply: "My selection:[[4],[1]]", expected: [4, 1] },
  { style: "explicit none", reply: "None.", expected: [] },
  { style: "empty list", reply: "My selection: []", expected: [] },
  { style: "JSON in a fence", reply: '```json\n{"useful": [3, 1]}\n```', expected: [3, 1] },
  { style: "JSON none", reply: '{"useful": []}', expected: [] },
  {
    style: "bullets of named passages",
    reply: "Useful passages:\n- Passage 4\n- Passage 2",
    expected: [4, 2],
  },
  { style: "bold identifiers", reply: "**Selection:** **[1]** and **[5]**", expected: [1, 5] },
  {
    style: "out-of-range identifiers only",
    reply: "My selection: [7] > [8]",
    expected: null,
  },
  {
    style: "a cited [1] in prose",
    reply: "Passage [1] mentions the year, but so might [3].",
    expected: null,
  },
];

/** ITEM's pointwise utility judgment: useful (true) or not (false). */
export const pointwiseReplies: CorpusReply<boolean>[] = [
  { style: "the format", reply: "Useful: yes", expected: true },
  {
    style: "ITEM's own label",
    reply: "My judgment: Yes, the passage states the year the treaty was signed.",
    expected: true,
  },
  {
    style: "ITEM's label, no",
    reply: "My judgment: No, it is about another war.",
    expected: false,
  },
  { style: "leading yes", reply: "Yes. It answers the question.", expected: true },
  { style: "bold label", reply: "**Useful:** no", expected: false },
  { style: "JSON in a fence", reply: '```json\n{"useful": false}\n```', expected: false },
  { style: "JSON with a string", reply: '{"useful": "yes"}', expected: true },
  {
    style: "prose: not useful",
    reply: "The passage is not useful for this question.",
    expected: false,
  },
  {
    style: "prose: useful",
    reply: "This passage is very useful: it gives the date.",
    expected: true,
  },
  {
    style: "verdict label",
    reply: "Reasoning: it gives the figure.\nVerdict: Yes",
    expected: true,
  },
  { style: "yes and no", reply: "Yes and no: it is partly relevant.", expected: null },
  {
    style: "a judgment revised on second thought: the last wins (issue #32)",
    reply: "My judgment: Yes\nOn second thought, my judgment: No",
    expected: false,
  },
  {
    style: "two labels that disagree, no revision",
    reply: "My judgment: Yes\nVerdict: No",
    expected: null,
  },
  { style: "nothing to read", reply: "There is no doubt it is interesting.", expected: null },
];
