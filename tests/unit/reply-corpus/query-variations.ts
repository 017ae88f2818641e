import type { CorpusReply } from "./types.ts";

/** The question the replies below answer (RAG-Fusion's variations, 3 asked for). */
export const VARIATIONS_QUESTION = "How does reciprocal rank fusion combine rankings?";

/** Query variations as models write them, in either mode, after cleaning (3 at most). */
export const queryVariationReplies: CorpusReply<string[]>[] = [
  {
    style: "the text format",
    reply: "1. RRF formula\n2. rank fusion constant k\n3. combining search rankings",
    expected: ["RRF formula", "rank fusion constant k", "combining search rankings"],
  },
  {
    style: "preamble and bold items",
    reply:
      "Sure! Here are three queries:\n\n1. **RRF formula**\n2. **rank fusion constant k**\n3. **merge ranked lists**",
    expected: ["RRF formula", "rank fusion constant k", "merge ranked lists"],
  },
  {
    style: "JSON in a code fence (text mode)",
    reply: '```json\n{"queries": ["RRF formula", "fusion of rankings", "k = 60 in RRF"]}\n```',
    expected: ["RRF formula", "fusion of rankings", "k = 60 in RRF"],
  },
  {
    style: "a bare JSON array",
    reply: '["RRF formula", "rank fusion"]',
    expected: ["RRF formula", "rank fusion"],
  },
  {
    style: "bullets",
    reply: "- RRF formula\n- rank fusion constant\n- merging rankings",
    expected: ["RRF formula", "rank fusion constant", "merging rankings"],
  },
  {
    style: "plain lines, no numbers",
    reply: "RRF formula\nrank fusion constant\nmerging rankings",
    expected: ["RRF formula", "rank fusion constant", "merging rankings"],
  },
  {
    style: "plain lines after a preamble",
    reply: "Here are the queries:\nRRF formula\nrank fusion constant",
    expected: ["RRF formula", "rank fusion constant"],
  },
  {
    style: "quoted numbered lines",
    reply: '1) "RRF formula"\n2) "rank fusion constant"',
    expected: ["RRF formula", "rank fusion constant"],
  },
  {
    style: "more than asked, and the question repeated",
    reply: `1. ${VARIATIONS_QUESTION}\n2. RRF\n3. RRF formula\n4. fusion k\n5. extra one`,
    expected: ["RRF", "RRF formula", "fusion k"],
  },
  {
    style: "numbered lines with a closing remark",
    reply: "1. RRF formula\n2. rank fusion k\n\nThese cover several angles.",
    expected: ["RRF formula", "rank fusion k"],
  },
  {
    style: "JSON with a non-string entry",
    reply: '{"queries": ["RRF formula", 42, "rank fusion"]}',
    expected: ["RRF formula", "rank fusion"],
  },
  { style: "empty", reply: "", expected: [] },
];
