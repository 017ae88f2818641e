import { isDeepStrictEqual } from "node:util";
import { readVariations } from "../../../functions/fuse/read-variations.ts";
import { cleanVariations } from "../../../functions/fuse/variations.ts";
import { readAnswerReply } from "../../../functions/judge/answer.ts";
import { readPairwiseReply } from "../../../functions/judge/pairwise.ts";
import { readRetrievalReply } from "../../../functions/judge/retrieval.ts";
import { readSimilarityReply } from "../../../functions/judge/similarity.ts";
import {
  readRankingReply,
  readSelectionReply,
  readVerdict,
} from "../../../functions/rerank/item/read.ts";
import { parseDimensions, parseScore } from "../../../functions/rerank/tot/parse.ts";
import { oneTurnRubric } from "../../../prompts/rerank-one-turn.ts";
import { answerOf } from "../../../shared/llm/reasoning.ts";
import { readJudgments } from "../../../shared/rerank/parse.ts";
import { readRubricDraft } from "../../../shared/rerank/read-rubric.ts";
import { repairRubric } from "../../../shared/rerank/rubric.ts";
import { SIMILARITY_DIMENSIONS } from "../../../shared/rerank/tot/dimensions.ts";
import type { Judgment } from "../../../shared/rerank/types.ts";
import { type ReadJudgments, TWO_TURN_CRITERIA } from "./rerank-judgments.ts";
import { VARIATIONS_QUESTION } from "./query-variations.ts";

/**
 * Scoring a corpus of replies across every reader, in the three outcomes
 * that matter: read right; read **confidently wrong** (a value that is not
 * the one a person takes, used as if sure: the worst outcome); and
 * **degraded** (a readable reply left unread, which costs a retry or a
 * judgment).
 */

/** One reply, the reader it goes through, and what a careful person takes (`null`: nothing). */
export type ScoredReply = {
  category: string;
  reader: ReaderName;
  reply: string;
  /** A provider's separate reasoning field (`reasoning_content`), when the thinking came apart. */
  reasoning?: string;
  expected: unknown;
};

/** What the rerank reader took, per document number, in the corpus's terms. */
export function asReadJudgments(judgments: readonly Judgment[]): ReadJudgments {
  return Object.fromEntries(judgments.map((judgment) => {
    if (judgment.dropped) return [judgment.position + 1, "dropped"];
    if (judgment.unreadable) return [judgment.position + 1, "unreadable"];
    const breakdown = Object.keys(judgment.criteria).length > 0;
    return [judgment.position + 1, {
      final: judgment.statedFinal ?? judgment.relevance!,
      ...(breakdown || judgment.statedFinal === undefined
        ? { relevance: judgment.relevance! }
        : {}),
      ...(breakdown ? { criteria: judgment.criteria } : {}),
    }];
  }));
}

const orNull = <T>(value: T | undefined): T | null => value ?? null;
const oneBased = (positions: number[] | undefined) =>
  positions ? positions.map((position) => position + 1) : null;

/** Each reader as the routes use it, returning a comparable value or `null` for unreadable. */
export const READERS = {
  retrieval: (reply: string) => orNull(readRetrievalReply(reply, undefined)?.score),
  similarity: (reply: string) => orNull(readSimilarityReply(reply, undefined)?.score),
  answer: (reply: string) => orNull(readAnswerReply(reply)?.scores),
  pairwise: (reply: string) => orNull(readPairwiseReply(reply, undefined).verdict),
  "rerank-relevance": (reply: string) => asReadJudgments(readJudgments(reply, 4, [])),
  "rerank-one-turn": (reply: string) =>
    asReadJudgments(readJudgments(reply, 3, oneTurnRubric.criteria)),
  "rerank-two-turn": (reply: string) => asReadJudgments(readJudgments(reply, 3, TWO_TURN_CRITERIA)),
  variations: (reply: string) => {
    const queries = cleanVariations(readVariations(reply), VARIATIONS_QUESTION, 3);
    return queries.length > 0 ? queries : null;
  },
  rubric: (reply: string) => {
    const draft = readRubricDraft(reply);
    const repaired = draft && repairRubric(draft, { allowEmpty: false });
    return repaired ? repaired.rubric.criteria.map((criterion) => criterion.name) : null;
  },
  "item-ranking": (reply: string) => {
    const positions = readRankingReply(reply, 4);
    return positions ? oneBased(positions) : null;
  },
  "item-selection": (reply: string) => oneBased(readSelectionReply(reply, 5)),
  "item-pointwise": (reply: string) => orNull(readVerdict(reply)),
  "tot-score": (reply: string) => orNull(parseScore(reply)),
  "tot-agent": (reply: string) => {
    const chosen = parseDimensions(reply, SIMILARITY_DIMENSIONS);
    return chosen.length > 0 ? chosen : null;
  },
} as const;

export type ReaderName = keyof typeof READERS;

export type Outcome = "right" | "wrong" | "degraded";

function same(read: unknown, expected: unknown): boolean {
  if (typeof read === "number" && typeof expected === "number") {
    return Math.abs(read - expected) < 1e-9;
  }
  return isDeepStrictEqual(read, expected);
}

/** A rerank map is wrong when any document it scored differs from the person's reading. */
function rerankOutcome(read: ReadJudgments, expected: ReadJudgments): Outcome {
  if (same(read, expected)) return "right";
  for (const [doc, value] of Object.entries(read)) {
    if (value === "unreadable") continue;
    if (!same(value, expected[Number(doc)])) return "wrong";
  }
  return "degraded";
}

/** How `reader` fared on one reply. */
export function outcomeOf(entry: ScoredReply): { outcome: Outcome; read: unknown } {
  // What the chat layer hands a reader: the content, the provider's reasoning field set aside.
  const text = entry.reasoning === undefined
    ? entry.reply
    : answerOf({ content: entry.reply, reasoning_content: entry.reasoning }).answer;
  const read = READERS[entry.reader](text);
  if (entry.reader.startsWith("rerank-")) {
    return {
      outcome: rerankOutcome(read as ReadJudgments, entry.expected as ReadJudgments),
      read,
    };
  }
  // An ordered ranking is completed by the reader: compare the prefix the reply wrote.
  const shown = entry.reader === "item-ranking" && Array.isArray(read) &&
      Array.isArray(entry.expected)
    ? read.slice(0, entry.expected.length)
    : read;
  if (same(shown, entry.expected)) return { outcome: "right", read: shown };
  return { outcome: shown === null ? "degraded" : "wrong", read: shown };
}

export type CorpusScore = {
  total: number;
  right: number;
  wrong: { category: string; reply: string; read: unknown; expected: unknown }[];
  degraded: { category: string; reply: string }[];
};

/** The score of a whole corpus. */
export function scoreCorpus(entries: readonly ScoredReply[]): CorpusScore {
  const score: CorpusScore = { total: entries.length, right: 0, wrong: [], degraded: [] };
  for (const entry of entries) {
    const { outcome, read } = outcomeOf(entry);
    if (outcome === "right") score.right++;
    else if (outcome === "wrong") {
      score.wrong.push({
        category: entry.category,
        reply: entry.reply,
        read,
        expected: entry.expected,
      });
    } else score.degraded.push({ category: entry.category, reply: entry.reply });
  }
  return score;
}

/** Right / wrong / degraded counts, grouped by `group` of each reply. */
export function countsBy(
  entries: readonly ScoredReply[],
  group: (entry: ScoredReply) => string,
): Map<string, Record<Outcome, number>> {
  const counts = new Map<string, Record<Outcome, number>>();
  for (const entry of entries) {
    const key = group(entry);
    const count = counts.get(key) ?? { right: 0, wrong: 0, degraded: 0 };
    count[outcomeOf(entry).outcome]++;
    counts.set(key, count);
  }
  return counts;
}
