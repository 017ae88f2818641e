import { z } from "zod";
import { type Criterion, CRITERION_MAX, criterionKey, RELEVANCE_MAX } from "./rubric.ts";
import type { Judgment } from "./types.ts";

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value));

const entrySchema = z.object({
  doc: z.coerce.number().int(),
  relevance: z.coerce.number().refine(Number.isFinite),
  criteria: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().max(2000).optional(),
});

/**
 * Judgments from a structured (JSON) reply. Each entry is checked on its
 * own: a bad entry is dropped without touching the others; document numbers
 * outside 1..N are ignored; the first entry for a document wins; scores are
 * clamped into their ranges; criteria the rubric does not name are ignored
 * and missing ones count as 0.
 */
export function parseStructuredJudgments(
  reply: unknown,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const entries = (reply as { documents?: unknown })?.documents;
  if (!Array.isArray(entries)) return [];
  const judgments: Judgment[] = [];
  const seen = new Set<number>();
  for (const entry of entries) {
    const parsed = entrySchema.safeParse(entry);
    if (!parsed.success) continue;
    const { doc, relevance, reason } = parsed.data;
    if (doc < 1 || doc > batchSize || seen.has(doc)) continue;
    seen.add(doc);
    const given = new Map(
      Object.entries(parsed.data.criteria ?? {}).map((
        [name, value],
      ) => [criterionKey(name), Number(value)]),
    );
    const scores: Record<string, number> = {};
    for (const criterion of criteria) {
      const value = given.get(criterion.name);
      scores[criterion.name] = value !== undefined && Number.isFinite(value)
        ? clamp(value, CRITERION_MAX)
        : 0;
    }
    judgments.push({
      position: doc - 1,
      relevance: clamp(relevance, RELEVANCE_MAX),
      criteria: scores,
      ...(reason?.trim() ? { reason: reason.trim() } : {}),
    });
  }
  return judgments;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;
const LINE_START =
  /\bdoc(?:ument)?\s*(?:#|no\.?|number)?\s*[:=]?\s*\[?(\d+)\]?\s*[,;|]\s*relevance\s*[:=]\s*/i;
const PAIR = /([A-Za-z][A-Za-z0-9 _\-/&]*?)\s*[:=]\s*([^,;|]*)/g;

function parseNumber(token: string): number | undefined {
  const cleaned = token.trim().replace(/[.)\]]+$/, "").replace(/\/\s*\d+$/, "").trim();
  return NUMBER.test(cleaned) ? Number(cleaned) : undefined;
}

/**
 * Judgments from the papers' text format: lines `Doc: N, Relevance: X`
 * (X the final score), optionally followed by `, <Criterion>: Y` pairs,
 * `, Topicality: R` (the 0-10 relevance) and `, Reason: ...`. Built for what
 * models really write:
 * - decimals are kept (`6.9` is 6.9, not 6);
 * - numbers outside 1..N are not documents (`Doc: 0` never wraps to the last);
 * - a line whose score does not parse is dropped, and no other line moves;
 * - the first line for a document wins;
 * - prose, markdown emphasis, bullets and code fences around lines are ignored.
 * Each line is read on its own, so document text quoted by a model cannot
 * shift another document's score.
 */
export function parseTextJudgments(
  text: string,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const keys = new Map(criteria.map((c) => [c.name, c.name]));
  const judgments: Judgment[] = [];
  const seen = new Set<number>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/[*_`#]/g, "");
    const start = LINE_START.exec(line);
    if (!start) continue;
    const doc = Number(start[1]);
    if (!Number.isInteger(doc) || doc < 1 || doc > batchSize || seen.has(doc)) continue;
    let rest = line.slice(start.index + start[0].length);
    let reason: string | undefined;
    const reasonAt = rest.search(/[,;|]\s*reason\s*[:=]/i);
    if (reasonAt !== -1) {
      reason = rest.slice(reasonAt).replace(/^[,;|]\s*reason\s*[:=]\s*/i, "").trim() || undefined;
      rest = rest.slice(0, reasonAt);
    }
    const [scoreToken = "", ...pairTokens] = rest.split(/[,;|]/);
    const statedFinal = parseNumber(scoreToken);
    if (statedFinal === undefined) continue;
    seen.add(doc);
    let relevance: number | undefined;
    const scores: Record<string, number> = {};
    for (const pair of pairTokens.join(",").matchAll(PAIR)) {
      const key = criterionKey(pair[1]!);
      const value = parseNumber(pair[2] ?? "");
      if (value === undefined) continue;
      if (key === "topicality" || key === "topical_relevance") {
        relevance = clamp(value, RELEVANCE_MAX);
      } else if (keys.has(key) && scores[key] === undefined) {
        scores[key] = clamp(value, CRITERION_MAX);
      }
    }
    const complete = relevance !== undefined && criteria.every((c) => scores[c.name] !== undefined);
    judgments.push({
      position: doc - 1,
      relevance: complete
        ? relevance
        : criteria.length === 0
        ? clamp(statedFinal, RELEVANCE_MAX)
        : undefined,
      criteria: complete ? scores : {},
      statedFinal,
      ...(reason ? { reason } : {}),
    });
  }
  return judgments;
}
