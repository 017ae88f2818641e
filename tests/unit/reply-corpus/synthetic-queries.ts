import type { CorpusReply } from "./types.ts";

/** Synthetic evaluation questions as models write them, after cleaning. */
export const syntheticQueryReplies: CorpusReply<string[]>[] = [
  {
    style: "the text format",
    reply: "1. What constant does RRF add?\n2. Who proposed RRF?",
    expected: ["What constant does RRF add?", "Who proposed RRF?"],
  },
  {
    style: "preamble and bold numbers",
    reply: "Here are two questions:\n\n**1.** What constant does RRF add?\n**2.** Why use k = 60?",
    expected: ["What constant does RRF add?", "Why use k = 60?"],
  },
  {
    style: "fenced JSON in text mode",
    reply: '```json\n{"questions": ["What is RRF?", "How is RRF computed?"]}\n```',
    expected: ["What is RRF?", "How is RRF computed?"],
  },
  {
    style: "a JSON array",
    reply: '["What is RRF?", "Why k = 60?"]',
    expected: ["What is RRF?", "Why k = 60?"],
  },
  {
    style: "Q-labels",
    reply: "Q1: What is RRF?\nQ2: Who proposed it?",
    expected: ["What is RRF?", "Who proposed it?"],
  },
  {
    style: "bullets with quotes",
    reply: '- "What is RRF?"\n- "Why k = 60?"',
    expected: ["What is RRF?", "Why k = 60?"],
  },
  {
    style: "plain question lines after a preamble",
    reply: "Sure! Questions a user might ask:\nWhat is RRF?\nWhy is k set to 60?",
    expected: ["What is RRF?", "Why is k set to 60?"],
  },
  {
    style: "numbered with a closing remark",
    reply: "1) What is RRF?\n2) Why k = 60?\n\nThese cover the passage.",
    expected: ["What is RRF?", "Why k = 60?"],
  },
  {
    style: "JSON with a non-string entry",
    reply: '{"questions": ["What is RRF?", 7, "Who proposed RRF?"]}',
    expected: ["What is RRF?", "Who proposed RRF?"],
  },
  {
    style: "too short to be a question",
    reply: "1. RRF?\n2. What does RRF add to each rank?",
    expected: ["What does RRF add to each rank?"],
  },
  { style: "a refusal", reply: "I cannot write questions about this passage.", expected: [] },
];
