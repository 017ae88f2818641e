import {
  judge,
  type Judgment,
  parseInstructions,
  type RerankInstructions,
} from "./rerank-judge.ts";
import { parseNumberedPrompt } from "./numbered.ts";
import type { OfflineTask, TaskInput } from "./types.ts";

function asJson(judgments: readonly Judgment[], explain: boolean): string {
  return JSON.stringify({
    documents: judgments.map(({ doc, relevance, criteria, reason }) => ({
      doc,
      relevance,
      criteria,
      ...(explain ? { reason } : {}),
    })),
  });
}

/** `Doc: N, Relevance: <final>, Topicality: <relevance>, Depth: 3, ...`, best first, kept ones only. */
function asLines(judgments: readonly Judgment[], instructions: RerankInstructions): string {
  const tie = instructions.tieBreak;
  return judgments
    .filter((judgment) => judgment.relevance >= instructions.threshold)
    .sort((a, b) =>
      b.final - a.final || (tie ? (b.criteria[tie] ?? 0) - (a.criteria[tie] ?? 0) : 0) ||
      a.doc - b.doc
    )
    .map((judgment) =>
      [
        `Doc: ${judgment.doc}`,
        `Relevance: ${judgment.final}`,
        `Topicality: ${judgment.relevance}`,
        ...instructions.criteria.map((c) => `${c.label}: ${judgment.criteria[c.key]}`),
        ...(instructions.explain ? [`Reason: ${judgment.reason}`] : []),
      ].join(", ")
    )
    .join("\n");
}

/** JSON when the request or the prompt's format asks for it (providers without structured outputs). */
const wantsJson = (input: TaskInput) => input.json || input.system.includes('{"documents"');

/**
 * A `rerank@1` task. Relevance is the IDF-weighted share of the question's
 * terms a document covers (0-10); each criterion is a 0-5 heuristic (see
 * `scoreCriterion`). Recency is measured against `now()` when given, else
 * against the newest date in the batch, so the same prompt always gets the
 * same scores.
 *
 * @example
 * const task = createRerankTask({ now: () => new Date("2025-01-01") });
 */
export function createRerankTask(options: { now?: () => Date } = {}): OfflineTask {
  return {
    reply(input) {
      const instructions = parseInstructions(input.system);
      const judgments = judge(input, instructions, options.now?.());
      return wantsJson(input)
        ? asJson(judgments, instructions.explain)
        : asLines(judgments, instructions);
    },
    // What a sloppy model writes: chatter, markdown, numbers out of range, words for scores.
    malformed(input, reply) {
      const first = parseNumberedPrompt(input.user).documents[0]?.number ?? 1;
      if (wantsJson(input)) {
        const entries = /^\{"documents":\[(.*)\]\}$/.exec(reply)?.[1] ?? "";
        const real = entries ? `${entries.split(/,(?=\{"doc")/)[0]}, ` : "";
        return "Here is the JSON you asked for:\n```json\n" +
          `{"documents": [${real}{"doc": 0, "relevance": 9}, {"doc": 99, "relevance": 8.5, ` +
          `"criteria": {}}, {"doc": ${first}, "relevance": "high", "criteria": {"depth": "deep"}}],}` +
          "\n```\nLet me know if you need anything else.";
      }
      return [
        "Sure! Here is my **ranking** of the documents:",
        "",
        "| Doc | Score |",
        "|-----|-------|",
        "Doc: 0, Relevance: 9, Topicality: 9",
        ...reply.split("\n").slice(0, 1).filter(Boolean),
        "Doc: 99, Relevance: 8.5, Topicality: 8",
        `- **Doc: ${first}**, Relevance: high, Topicality: seven`,
        "I hope this helps!",
      ].join("\n");
    },
  };
}

/** `rerank@1` with recency measured against the batch's newest date. */
export const rerankTask: OfflineTask = createRerankTask();
