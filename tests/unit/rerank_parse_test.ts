import assert from "node:assert/strict";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { parseStructuredJudgments, parseTextJudgments } from "../../shared/rerank/parse.ts";
import type { Criterion } from "../../shared/rerank/rubric.ts";
import type { Judgment } from "../../shared/rerank/types.ts";

const ONE_TURN = oneTurnRubric.criteria;
const NO_CRITERIA: Criterion[] = [];

function criterion(name: string, weight = 0.5): Criterion {
  return { name, definition: `About ${name}.`, high: "Fully.", low: "Not at all.", weight };
}

/** Position (from 0) → the stated score, the shape most assertions compare. */
function statedByPosition(judgments: Judgment[]): Record<number, number | undefined> {
  return Object.fromEntries(judgments.map((j) => [j.position, j.statedFinal]));
}

// ---- parseTextJudgments -------------------------------------------------------------------

Deno.test("parseTextJudgments keeps decimals: 6.9 stays 6.9, not 6", () => {
  const judgments = parseTextJudgments(
    "Doc: 1, Relevance: 6.9\nDoc: 2, Relevance: 6.25",
    2,
    NO_CRITERIA,
  );
  assert.deepEqual(judgments.map((j) => [j.position, j.relevance, j.statedFinal]), [
    [0, 6.9, 6.9],
    [1, 6.25, 6.25],
  ]);
});

Deno.test("parseTextJudgments ignores Doc: 0 and numbers past the batch instead of wrapping them", () => {
  const judgments = parseTextJudgments(
    ["Doc: 0, Relevance: 9", "Doc: 11, Relevance: 8", "Doc: 10, Relevance: 4"].join("\n"),
    10,
    NO_CRITERIA,
  );
  // Doc: 0 must not become the last document (position 9 keeps its own score, 4).
  assert.deepEqual(statedByPosition(judgments), { 9: 4 });
});

Deno.test("parseTextJudgments marks a document with a non-numeric score unreadable, without shifting the others", () => {
  const judgments = parseTextJudgments(
    [
      "Doc: 1, Relevance: 7",
      "Doc: 2, Relevance: high",
      "Doc: 3, Relevance: 5",
      "Doc: 4, Relevance:",
      "Doc: 5, Relevance: 2",
    ].join("\n"),
    5,
    NO_CRITERIA,
  );
  assert.deepEqual(statedByPosition(judgments), { 0: 7, 1: undefined, 2: 5, 3: undefined, 4: 2 });
  assert.deepEqual(judgments.filter((j) => j.unreadable).map((j) => j.position), [1, 3]);
});

Deno.test("parseTextJudgments resolves a duplicate document to its last line with a score, marked revised", () => {
  const judgments = parseTextJudgments(
    [
      "Doc: 2, Relevance: 4",
      "Doc: 1, Relevance: n/a",
      "Doc: 2, Relevance: 9",
      "Doc: 1, Relevance: 6",
    ].join("\n"),
    3,
    NO_CRITERIA,
  );
  assert.deepEqual(judgments.map((j) => [j.position, j.statedFinal, j.revised]), [
    [1, 9, true],
    [0, 6, undefined],
  ]);
});

Deno.test("parseTextJudgments reads lines wrapped in markdown, bullets, numbering and tables", () => {
  const text = [
    "Sure! Here is my **ranking** of the documents:",
    "```",
    "**Doc: 2**, Relevance: 7",
    "- Doc: 3, Relevance: 5.5",
    "* _Doc: 4_, Relevance: 3",
    "1. Doc: 5, Relevance: 2",
    "| Doc: 6 | Relevance: 8 |",
    "```",
    "Document 1 looks off-topic, so I left it out; Doc 7 too.",
    "I hope this helps!",
  ].join("\n");
  const judgments = parseTextJudgments(text, 7, NO_CRITERIA);
  assert.deepEqual(statedByPosition(judgments), { 1: 7, 2: 5.5, 3: 3, 4: 2, 5: 8 });
});

Deno.test("parseTextJudgments returns nothing for prose and code fences alone", () => {
  const text = "```json\n{}\n```\nI could not rank these documents. Relevance: 10 to all!";
  assert.deepEqual(parseTextJudgments(text, 3, NO_CRITERIA), []);
  assert.deepEqual(parseTextJudgments("", 3, NO_CRITERIA), []);
});

Deno.test("parseTextJudgments maps Topicality and criterion labels to the rubric's keys", () => {
  const criteria = [criterion("comparative_coverage", 1), criterion("recency", 1.5)];
  const judgments = parseTextJudgments(
    "Doc: 1, Relevance: 15.5, Topicality: 7, Comparative coverage: 4, RECENCY: 3",
    1,
    criteria,
  );
  assert.deepEqual(judgments, [{
    position: 0,
    relevance: 7,
    criteria: { comparative_coverage: 4, recency: 3 },
    statedFinal: 15.5,
  }]);
});

Deno.test("parseTextJudgments never clamps: a breakdown off its scales is unread, 8/10 on 0-5 is 4", () => {
  const offScale = parseTextJudgments(
    "Doc: 1, Relevance: 14, Topicality: 12, Depth: 9, Diversity: 1, Clarity: 3, " +
      "Authoritativeness: 4.5, Recency: 2",
    1,
    ONE_TURN,
  );
  assert.equal(offScale[0]?.relevance, undefined);
  assert.deepEqual(offScale[0]?.criteria, {});
  assert.equal(offScale[0]?.statedFinal, 14);
  const [converted] = parseTextJudgments(
    "Doc: 1, Relevance: 12, Topicality: 4/5, Depth: 8/10, Diversity: 1, Clarity: 60%, " +
      "Authoritativeness: 4.5, Recency: 2",
    1,
    ONE_TURN,
  );
  assert.equal(converted?.relevance, 8);
  assert.deepEqual(converted?.criteria, {
    depth: 4,
    diversity: 1,
    clarity: 3,
    authoritativeness: 4.5,
    recency: 2,
  });
});

Deno.test("parseTextJudgments keeps only the stated final when a line's breakdown is incomplete", () => {
  const judgments = parseTextJudgments(
    "Doc: 1, Relevance: 9.5, Topicality: 7, Depth: 4\nDoc: 2, Relevance: 8",
    2,
    ONE_TURN,
  );
  assert.deepEqual(judgments.map((j) => [j.relevance, j.criteria, j.statedFinal]), [
    [undefined, {}, 9.5],
    [undefined, {}, 8],
  ]);
});

Deno.test("parseTextJudgments captures a Reason with commas, and criteria named inside it do not count", () => {
  const criteria = [criterion("depth")];
  const judgments = parseTextJudgments(
    "Doc: 1, Relevance: 7, Topicality: 7, Reason: Covers BM25, k1 and b, and says Depth: 5.",
    1,
    criteria,
  );
  assert.equal(judgments[0]?.reason, "Covers BM25, k1 and b, and says Depth: 5.");
  // The breakdown lacks depth (it is only inside the reason), so only the final is known.
  assert.equal(judgments[0]?.relevance, undefined);
  assert.equal(judgments[0]?.statedFinal, 7);
});

Deno.test("parseTextJudgments fixes llama-index's misaligned lists: each line keeps its own score", () => {
  // llama-index parsed document numbers and scores into two lists and zipped them, so one
  // unreadable score shifted every later score onto the wrong document.
  const text = [
    "Doc: 1, Relevance: 9",
    "Doc: 2, Relevance: seven",
    "Doc: 3",
    "Doc: 4, Relevance: 3",
    "Doc: 5, Relevance: 1",
  ].join("\n");
  assert.deepEqual(statedByPosition(parseTextJudgments(text, 5, NO_CRITERIA)), {
    0: 9,
    1: undefined, // "seven": named but unreadable ("Doc: 3" has no score label at all)
    3: 3,
    4: 1,
  });
});

Deno.test("parseTextJudgments fixes llama-index's 12.5 read as 12", () => {
  const [judgment] = parseTextJudgments("Doc: 3, Relevance: 12.5", 3, ONE_TURN);
  assert.equal(judgment?.position, 2);
  assert.equal(judgment?.statedFinal, 12.5);
  // A relevance-only line is a 0-10 relevance, so 12.5 is off the scale: unreadable, not clamped.
  assert.equal(parseTextJudgments("Doc: 3, Relevance: 12.5", 3, NO_CRITERIA)[0]?.unreadable, true);
});

Deno.test("parseTextJudgments reads scores written as 7/10 and Document N spellings", () => {
  const judgments = parseTextJudgments(
    "Document 1, Relevance: 7/10\nDoc #2; relevance = 4.\nDoc: [3], Relevance: 6)",
    3,
    NO_CRITERIA,
  );
  assert.deepEqual(statedByPosition(judgments), { 0: 7, 1: 4, 2: 6 });
});

// ---- parseStructuredJudgments ---------------------------------------------------------------

Deno.test("parseStructuredJudgments drops each bad entry on its own and keeps the rest", () => {
  const judgments = parseStructuredJudgments(
    {
      documents: [
        { doc: 1, relevance: 7 },
        { doc: "x", relevance: 5 },
        { relevance: 3 },
        { doc: 2, relevance: "high" },
        { doc: 1.5, relevance: 2 },
        null,
        "Doc: 2, Relevance: 9",
        { doc: 3, relevance: 4 },
      ],
    },
    3,
    NO_CRITERIA,
  );
  assert.deepEqual(judgments.map((j) => [j.position, j.relevance]), [[0, 7], [2, 4]]);
});

Deno.test("parseStructuredJudgments leaves a document off its scales unreadable, never clamped", () => {
  const judgments = parseStructuredJudgments(
    {
      documents: [
        { doc: 1, relevance: 15, criteria: { depth: 9, recency: -1 } },
        { doc: 2, relevance: -2, criteria: { depth: 2.5, recency: "4" } },
      ],
    },
    2,
    [criterion("depth"), criterion("recency")],
  );
  assert.deepEqual(judgments.map((j) => [j.unreadable, j.relevance, j.criteria]), [
    [true, undefined, {}],
    [true, undefined, {}],
  ]);
});

Deno.test("parseStructuredJudgments ignores unknown criteria and counts missing ones as 0", () => {
  const [judgment] = parseStructuredJudgments(
    { documents: [{ doc: 1, relevance: 6, criteria: { Depth: 3, flavour: 5, clarity: "n/a" } }] },
    1,
    ONE_TURN,
  );
  assert.deepEqual(judgment?.criteria, {
    depth: 3,
    diversity: 0,
    clarity: 0,
    authoritativeness: 0,
    recency: 0,
  });
});

Deno.test("parseStructuredJudgments ignores document numbers outside 1..N; a later duplicate wins", () => {
  const judgments = parseStructuredJudgments(
    {
      documents: [
        { doc: 0, relevance: 9 },
        { doc: 11, relevance: 9 },
        { doc: -1, relevance: 9 },
        { doc: 10, relevance: 5 },
        { doc: 10, relevance: 8 },
      ],
    },
    10,
    NO_CRITERIA,
  );
  assert.deepEqual(judgments.map((j) => [j.position, j.relevance, j.revised]), [[9, 8, true]]);
});

Deno.test("parseStructuredJudgments keeps a trimmed reason and drops an empty one", () => {
  const judgments = parseStructuredJudgments(
    {
      documents: [
        { doc: 1, relevance: 6, reason: "  States the figures.  " },
        { doc: 2, relevance: 6, reason: "   " },
      ],
    },
    2,
    NO_CRITERIA,
  );
  assert.equal(judgments[0]?.reason, "States the figures.");
  assert.equal("reason" in judgments[1]!, false);
});

Deno.test("parseStructuredJudgments returns nothing for replies without a documents array", () => {
  for (const reply of [undefined, null, "text", 7, {}, { documents: "all" }, [{ doc: 1 }]]) {
    assert.deepEqual(parseStructuredJudgments(reply, 3, NO_CRITERIA), [], JSON.stringify(reply));
  }
});
