import type { TotDimension } from "../../../shared/rerank/tot/dimensions.ts";
import type { CorpusReply } from "./types.ts";

/** ToT-RAG's per-dimension score on [0, 1], with whatever scale the reply states. */
export const totScoreReplies: CorpusReply<number>[] = [
  { style: "the format", reply: "0.65", expected: 0.65 },
  { style: "decimal comma", reply: "0,8", expected: 0.8 },
  { style: "fenced JSON", reply: '```json\n{"score": 0.4}\n```', expected: 0.4 },
  { style: "fraction of ten", reply: "**Score:** 8/10", expected: 0.8 },
  { style: "percent", reply: "Fluency: 75%", expected: 0.75 },
  {
    style: "stated 0-10 scale",
    reply: "On a scale from 0 to 10, this passage is an 8.",
    expected: 0.8,
  },
  {
    style: "stated 0-1 scale restated",
    reply: "On a scale from 0 to 1, I'd give a score of 0.7.",
    expected: 0.7,
  },
  {
    style: "label after a sentence",
    reply: "The passage cites 3 sources. **Score:** 0.9",
    expected: 0.9,
  },
  { style: "lone decimal in prose", reply: "I would say 0.35 for this one.", expected: 0.35 },
  { style: "out of ten in words", reply: "Rating: 6 out of 10", expected: 0.6 },
  { style: "the dimension as label", reply: "Semantic: 0.55", expected: 0.55 },
  { style: "a bare 8 has no scale", reply: "8", expected: null },
  { style: "above the scale", reply: "1.7", expected: null },
  { style: "two numbers in prose", reply: "Somewhere between 0.4 and 0.6.", expected: null },
  { style: "no number", reply: "It reads well, I think.", expected: null },
];

/** The agent's choice of two similarity dimensions (level 2), in the order named. */
export const totAgentReplies: CorpusReply<TotDimension[]>[] = [
  {
    style: "the format",
    reply: "Dimensions: lexical, semantic",
    expected: ["lexical", "semantic"],
  },
  {
    style: "bold names",
    reply: "Dimensions: **Semantic**, **Pragmatic**",
    expected: ["semantic", "pragmatic"],
  },
  {
    style: "fenced JSON",
    reply: '```json\n{"dimensions": ["structural", "lexical"]}\n```',
    expected: ["structural", "lexical"],
  },
  {
    style: "inflected names after the label",
    reply: "These passages differ in style.\nDimensions: structure, then stylistically",
    expected: ["structural", "stylistic"],
  },
  {
    style: "prose naming two",
    reply: "I choose semantic similarity and pragmatic fit.",
    expected: ["semantic", "pragmatic"],
  },
  {
    style: "numbered list after a label",
    reply: "Chosen dimensions:\n1. Lexical\n2. Stylistic",
    expected: ["lexical", "stylistic"],
  },
  {
    style: "reasoning names others, the label decides",
    reply: "Lexical, structural and stylistic cues are weak here.\nDimensions: semantic, pragmatic",
    expected: ["semantic", "pragmatic"],
  },
  {
    style: "a repeat counts once",
    reply: "Dimensions: semantic, semantic",
    expected: ["semantic"],
  },
  {
    style: "another level's names are ignored",
    reply: "Dimensions: fluency, lexical",
    expected: ["lexical"],
  },
  {
    style: "three named without a label",
    reply: "Lexical, semantic or pragmatic similarity could all work.",
    expected: [],
  },
  { style: "nothing named", reply: "I am not sure.", expected: [] },
];

/** The evaluator's thresholds for [lexical, semantic], on [0, 1]. */
export const totThresholdReplies: CorpusReply<Partial<Record<TotDimension, number>>>[] = [
  {
    style: "the format",
    reply: "lexical: 0.4\nsemantic: 0.6",
    expected: { lexical: 0.4, semantic: 0.6 },
  },
  {
    style: "the paper's comma-separated pair",
    reply: "0.4, 0.6",
    expected: { lexical: 0.4, semantic: 0.6 },
  },
  {
    style: "fenced JSON",
    reply: '```json\n{"thresholds": {"lexical": 0.3, "semantic": 0.5}}\n```',
    expected: { lexical: 0.3, semantic: 0.5 },
  },
  {
    style: "percentages, any order",
    reply: "Semantic = 55%\n- **Lexical**: 40%",
    expected: { lexical: 0.4, semantic: 0.55 },
  },
  {
    style: "decimal commas",
    reply: "lexical: 0,35\nsemantic: 0,5",
    expected: { lexical: 0.35, semantic: 0.5 },
  },
  {
    style: "names with threshold",
    reply: "Lexical threshold: 0.2\nSemantic threshold: 0.7",
    expected: { lexical: 0.2, semantic: 0.7 },
  },
  {
    style: "fractions",
    reply: "lexical: 3/10, semantic: 6/10",
    expected: { lexical: 0.3, semantic: 0.6 },
  },
  {
    style: "one unreadable",
    reply: "lexical: high\nsemantic: 0.45",
    expected: { semantic: 0.45 },
  },
  {
    style: "off the scale is unreadable",
    reply: "lexical: 7\nsemantic: 0.5",
    expected: { semantic: 0.5 },
  },
  {
    style: "three numbers for two dimensions",
    reply: "0.5, 0.4, 0.3",
    expected: {},
  },
  { style: "no numbers", reply: "Keep the better half.", expected: {} },
];
