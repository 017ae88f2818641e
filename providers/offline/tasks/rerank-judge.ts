import { type CriterionLine, documentYear, scoreCriterion } from "./criteria.ts";
import { parseNumberedPrompt } from "./numbered.ts";
import { round, topicality } from "./topicality.ts";
import type { TaskInput } from "./types.ts";

/** What the rendered system prompt asks for (see `renderRerankSystem`). */
export type RerankInstructions = {
  criteria: CriterionLine[];
  threshold: number;
  /** The key of the criterion ties go to, if the prompt names one. */
  tieBreak: string | undefined;
  explain: boolean;
};

/** One document's scores, as the offline model writes them. */
export type Judgment = {
  doc: number;
  relevance: number;
  criteria: Record<string, number>;
  final: number;
  reason: string;
};

const CRITERION_LINE = /^- (.+?) \[key: (\w+)\] \(0-\d+, weight ([\d.]+)\):[ \t]*(.*)$/gm;
const THRESHOLD = /Documents with Relevance below ([\d.]+) will be dropped/;
const TIE_BREAK = /Ties go to the higher (.+?),/;
const DEFAULT_THRESHOLD = 3;

/**
 * Reads the criteria (label, key, weight, definition), the threshold, the
 * tie-break and whether reasons are wanted from a rendered system prompt.
 *
 * @example
 * parseInstructions(renderRerankSystem(oneTurnRubric, opts)).criteria.length; // 5
 */
export function parseInstructions(system: string): RerankInstructions {
  const criteria = [...system.matchAll(CRITERION_LINE)].map((match) => ({
    label: match[1] ?? "",
    key: match[2] ?? "",
    weight: Number(match[3]),
    // "A 0: ..." describes the opposite; its words would reward the wrong documents.
    definition: (match[4] ?? "").split(/\sA 0:/)[0] ?? "",
  }));
  const tieLabel = TIE_BREAK.exec(system)?.[1];
  return {
    criteria,
    threshold: Number(THRESHOLD.exec(system)?.[1] ?? DEFAULT_THRESHOLD),
    tieBreak: criteria.find((criterion) => criterion.label === tieLabel)?.key,
    // Only the format's own wording, so a criterion named "reasoning" does not switch it on.
    explain: /"reason":|Reason: </.test(system),
  };
}

/** "Now" as a fractional year, so a document from June is newer than one from January. */
function fractionalYear(date: Date): number {
  return date.getUTCFullYear() + date.getUTCMonth() / 12;
}

/**
 * Scores every document of a rerank prompt: relevance 0-10 (one decimal),
 * each criterion 0-5, the weighted final, and a one-sentence reason.
 * Recency is measured against `now`, or the batch's newest date without it.
 */
export function judge(input: TaskInput, instructions: RerankInstructions, now: Date | undefined) {
  const { question, documents } = parseNumberedPrompt(input.user);
  const topics = topicality(question, documents);
  const years = documents.map((document) => documentYear(document))
    .filter((year) => year !== undefined);
  const referenceYear = now
    ? fractionalYear(now)
    : years.length > 0
    ? Math.max(...years)
    : undefined;
  return documents.map((document, i): Judgment => {
    const topic = topics[i]!;
    const relevance = round(10 * topic.coverage, 1);
    const criteria: Record<string, number> = {};
    let best: CriterionLine | undefined;
    for (const criterion of instructions.criteria) {
      criteria[criterion.key] = scoreCriterion(criterion, { document, topic, referenceYear });
      if (!best || criteria[criterion.key]! > criteria[best.key]!) best = criterion;
    }
    const final = round(
      relevance + instructions.criteria.reduce((sum, c) => sum + c.weight * criteria[c.key]!, 0),
      2,
    );
    // No commas, so the reason cannot be mistaken for more `Name: value` pairs.
    const reason = `Covers ${topic.matched.length} of ${topic.terms.length} question terms` +
      (topic.matched.length > 0 ? ` (${topic.matched.join(" ")})` : "") +
      (best ? `; strongest on ${best.label} at ${criteria[best.key]}.` : ".");
    return { doc: document.number, relevance, criteria, final, reason };
  });
}
