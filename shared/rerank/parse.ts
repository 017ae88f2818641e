import { z } from "zod";
import { extractJsonObject } from "../llm/json.ts";
import { isRefusal, normalizeReply, withoutQuotedText } from "../llm/reply-text.ts";
import { blocksAsLines } from "./blocks.ts";
import { ignoredDocuments } from "./ignored.ts";
import { reviseJudgments } from "./revise-judgments.ts";
import { type Criterion, CRITERION_MAX, criterionKey, RELEVANCE_MAX } from "./rubric.ts";
import type { Judgment } from "./types.ts";

/** A score within 0..max, or none: an out-of-range score is unreadable, never clamped. */
const within = (value: number, max: number) =>
  Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;

const entrySchema = z.object({
  doc: z.coerce.number().int(),
  relevance: z.coerce.number().refine(Number.isFinite),
  criteria: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().max(2000).optional(),
});

/**
 * Judgments from a structured (JSON) reply. Each entry is checked on its
 * own: a bad entry is dropped without touching the others; document numbers
 * outside 1..N are ignored; the last entry for a document wins (a reply that
 * corrects itself); a relevance or criterion off its scale makes the document
 * unreadable (never clamped); criteria the rubric does not name are ignored
 * and missing ones count as 0.
 */
export function parseStructuredJudgments(
  reply: unknown,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const entries = (reply as { documents?: unknown })?.documents;
  if (!Array.isArray(entries)) return [];
  const byDoc = new Map<number, Judgment>();
  for (const entry of entries) {
    const parsed = entrySchema.safeParse(entry);
    if (!parsed.success) continue;
    const { doc, reason } = parsed.data;
    if (doc < 1 || doc > batchSize) continue;
    const given = new Map(
      Object.entries(parsed.data.criteria ?? {}).map((
        [name, value],
      ) => [criterionKey(name), Number(value)]),
    );
    const relevance = within(parsed.data.relevance, RELEVANCE_MAX);
    const scores: Record<string, number> = {};
    let offScale = relevance === undefined;
    for (const criterion of criteria) {
      const value = given.get(criterion.name);
      if (value === undefined || !Number.isFinite(value)) {
        scores[criterion.name] = 0;
        continue;
      }
      const score = within(value, CRITERION_MAX);
      if (score === undefined) offScale = true;
      else scores[criterion.name] = score;
    }
    const revised = byDoc.has(doc) ? { revised: true as const } : {};
    byDoc.set(
      doc,
      offScale ? { position: doc - 1, criteria: {}, unreadable: true, ...revised } : {
        position: doc - 1,
        relevance,
        criteria: scores,
        ...(reason?.trim() ? { reason: reason.trim() } : {}),
        ...revised,
      },
    );
  }
  return [...byDoc.values()];
}

/**
 * A batch reply's judgments in either output mode, as the batch reads it: a
 * JSON `{"documents": [...]}` (bare or fenced), else the text lines, blocks
 * or table. The reply is normalised first (`２`, curly quotes); a refusal
 * holds none; a document the reply says to ignore ("Doc 3 does not help at
 * all; please ignore it") is `dropped`, whatever a line scored it.
 */
export function readJudgments(
  reply: string,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return [];
  const structured = parseStructuredJudgments(extractJsonObject(text), batchSize, criteria);
  const judgments = reviseJudgments(
    text,
    structured.length > 0 ? structured : parseTextJudgments(text, batchSize, criteria),
    criteria.length,
  );
  const ignored = ignoredDocuments(text, batchSize);
  if (ignored.size === 0) return judgments;
  const kept = judgments.filter((judgment) => !ignored.has(judgment.position + 1));
  return [
    ...kept,
    ...[...ignored].map((doc): Judgment => ({ position: doc - 1, criteria: {}, dropped: true })),
  ];
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;
/**
 * Where a judgment line starts: `Doc: 3, Relevance: `, `Document 3: Relevance: `,
 * `Doc 3 - Final score: `, `[3] Relevance: `. The number must be labelled as a
 * document: a bare `3.` is list numbering.
 */
const LINE_START =
  /(?:\b(?:doc(?:ument)?|passage)\s*(?:#|no\.?|number)?\s*[:=]?\s*\[?(\d+)\]?|^\W*\[(\d+)\])\s*(?:[,;|:)]|\s[-–—]|\s)?\s*(?:relevance|final(?:\s+score)?|score)\s*(?:score)?\s*[:=]\s*/i;
const PAIR = /([A-Za-z][A-Za-z0-9 _\-/&]*?)\s*[:=]\s*([^,;|]*)/g;

/**
 * A score token on a scale whose top is `max`: `7`, `7.5`, `7 (mostly on
 * topic)`, `9 — gives the formula`; `8/10`, `4 out of 5` and `80%` are
 * converted to the scale (`8/10` is 4 on 0-5). A number off the scale with
 * none of its own (`7` on 0-5) is unreadable: never clamped. `max` undefined
 * takes any number ≥ 0 (the stated final, whose top depends on the weights).
 */
export function parseScoreToken(token: string, max: number | undefined): number | undefined {
  const cleaned = token.trim()
    .replace(/\s*\([^()]*\)\s*$/, "")
    .replace(/\s+[-–—]\s+\D.*$|\s*[–—]\s*\D.*$/, "")
    .replace(/[.)\]]+$/, "").trim();
  const scaled = /^(.+?)\s*(?:(?:\/|out\s+of)\s*(\d+(?:\.\d+)?)|(%))$/i.exec(cleaned);
  const number = scaled ? scaled[1]!.trim() : cleaned;
  if (!NUMBER.test(number)) return undefined;
  let value = Number(number);
  const top = max ?? RELEVANCE_MAX;
  if (scaled?.[3]) value = (value / 100) * top;
  else if (scaled?.[2]) {
    const over = Number(scaled[2]);
    if (!(over > 0) || value > over) return undefined;
    value = (value / over) * top;
  }
  value = Math.round(value * 1e9) / 1e9;
  if (value < 0) return undefined;
  return max === undefined || value <= max ? value : undefined;
}

/**
 * The rubric criterion a written label names: its key exactly, or the
 * paper's longer label that starts with it or holds it as a word (`Depth of
 * Content` is `depth`, `Source Authoritativeness` is `authoritativeness`),
 * or one word of it (`Rigor` is `methodological_rigor`),
 * when exactly one criterion fits.
 */
function criterionNamed(label: string, keys: readonly string[]): string | undefined {
  const key = criterionKey(label);
  if (keys.includes(key)) return key;
  const words = key.split("_");
  const fits = keys.filter((name) =>
    key.startsWith(`${name}_`) || words.includes(name) ||
    (key.length >= 4 && !key.includes("_") && name.split("_").includes(key)) ||
    (name.length >= 5 && words.some((word) => word.length >= 5 && name.startsWith(word)))
  );
  return fits.length === 1 ? fits[0] : undefined;
}

/**
 * Judgments from the papers' text format: lines `Doc: N, Relevance: X`
 * (X the final score), optionally followed by `, <Criterion>: Y` pairs,
 * `, Topicality: R` (the 0-10 relevance) and `, Reason: ...`; one block
 * per document (a `**Doc 1**` heading over `Relevance: 9` lines); else a
 * markdown table with a document column. Built for what models really write:
 * - decimals are kept (`6.9` is 6.9, not 6); `7/10` is 7, `4/5` is 8, and
 *   `8/10` on a 0-5 criterion is 4; a value off its scale is unreadable, never clamped;
 * - `Document 1: Relevance: 8`, `[1] Relevance: 8 — defines apt` and `Doc 1 - Score: 8` start a line too;
 * - the paper's own labels name criteria (`Depth of Content: 4` is depth);
 * - numbers outside 1..N are not documents (`Doc: 0` never wraps to the last);
 * - a line whose score is unreadable (`Relevance: high`) makes that document
 *   `unreadable`, unless another line for it has a score; no other line moves;
 * - the last line with a score for a document wins (a reply that corrects
 *   itself), and the judgment says it was `revised`;
 * - prose, markdown emphasis, bullets and code fences around lines are ignored.
 * Each line is read on its own, and quoted text is set aside, so document
 * text quoted by a model cannot shift another document's score, and a score
 * line without a document label (a quoted `Relevance: 10`) is no judgment.
 */
export function parseTextJudgments(
  reply: string,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const keys = criteria.map((c) => c.name);
  const text = blocksAsLines(withoutQuotedText(normalizeReply(reply)));
  const byDoc = new Map<number, Judgment>();
  const unreadable = new Set<number>();
  for (const rawLine of text.split(/\r?\n/)) {
    // Emphasis marks go; an underscore inside a word (`methodological_rigor`) stays.
    const line = rawLine.replace(/[*`#]|(?<!\w)_|_(?!\w)/g, "");
    const start = LINE_START.exec(line);
    if (!start) continue;
    const doc = Number(start[1] ?? start[2]);
    if (!Number.isInteger(doc) || doc < 1 || doc > batchSize) continue;
    // A decimal comma (`7,5`) is no pair separator: the separator has a space after it.
    let rest = line.slice(start.index + start[0].length).replace(/\([^()]*\)/g, " ")
      .replace(/(\d),(\d{1,2})(?![\d,])/g, "$1.$2");
    let reason: string | undefined;
    const reasonAt = rest.search(/[,;|]\s*reason\s*[:=]/i);
    if (reasonAt !== -1) {
      reason = rest.slice(reasonAt).replace(/^[,;|]\s*reason\s*[:=]\s*/i, "").trim() || undefined;
      rest = rest.slice(0, reasonAt);
    }
    const [scoreToken = "", ...pairTokens] = rest.split(/[,;|]/);
    const statedFinal = parseScoreToken(scoreToken, keys.length === 0 ? RELEVANCE_MAX : undefined);
    if (statedFinal === undefined) {
      unreadable.add(doc);
      continue;
    }
    const pairs = [...pairTokens.join(",").matchAll(PAIR)].map((pair) => ({
      label: pair[1]!,
      raw: pair[2] ?? "",
    }));
    const judgment = judgmentOf(doc, statedFinal, pairs, keys, reason);
    const earlier = byDoc.get(doc);
    const revised = earlier !== undefined && earlier.statedFinal !== statedFinal;
    byDoc.set(doc, revised || earlier?.revised ? { ...judgment, revised: true } : judgment);
  }
  if (byDoc.size === 0) {
    const table = parseTableJudgments(text, batchSize, keys);
    if (table.length > 0) return table;
  }
  const judgments = [...byDoc.values()];
  for (const doc of unreadable) {
    if (!byDoc.has(doc)) judgments.push({ position: doc - 1, criteria: {}, unreadable: true });
  }
  return judgments;
}

/** One judgment from its stated final and labelled pairs (see `parseTextJudgments`). */
function judgmentOf(
  doc: number,
  statedFinal: number,
  pairs: readonly { label: string; raw: string }[],
  keys: readonly string[],
  reason: string | undefined,
): Judgment {
  let relevance: number | undefined;
  const scores: Record<string, number> = {};
  for (const { label, raw } of pairs) {
    const key = criterionKey(label);
    if (key === "topicality" || key === "topical_relevance") {
      relevance = parseScoreToken(raw, RELEVANCE_MAX);
      continue;
    }
    const named = criterionNamed(label, keys);
    const value = parseScoreToken(raw, CRITERION_MAX);
    if (named && value !== undefined && scores[named] === undefined) scores[named] = value;
  }
  const complete = relevance !== undefined && keys.every((key) => scores[key] !== undefined);
  return {
    position: doc - 1,
    relevance: complete ? relevance : keys.length === 0 ? statedFinal : undefined,
    criteria: complete ? scores : {},
    statedFinal,
    ...(reason ? { reason } : {}),
  };
}

/**
 * Judgments from a markdown table whose header names a document column
 * (`Doc`, `Document`, `#`) and a score column: `Final` (or `Final score`)
 * is the final and `Relevance` the 0-10 relevance when both are there;
 * otherwise `Relevance` (or `Score`) is the final, as in the line format,
 * and `Topicality` the relevance. Criteria columns are named as in lines.
 */
function parseTableJudgments(text: string, batchSize: number, keys: readonly string[]): Judgment[] {
  const rows = text.split(/\r?\n/).filter((line) => /^\s*\|.*\|\s*$/.test(line))
    .map((line) =>
      line.trim().replace(/^\||\|$/g, "").split("|").map((cell) =>
        cell.replace(/[*_`]/g, "").trim()
      )
    );
  const headerAt = rows.findIndex((cells) =>
    cells.some((cell) => /^(?:doc(?:ument)?|#|passage)\b/i.test(cell))
  );
  if (headerAt === -1) return [];
  const header = rows[headerAt]!.map((cell) => criterionKey(cell));
  const column = (...names: string[]) => header.findIndex((key) => names.includes(key));
  const docColumn = header.findIndex((key) => /^(?:doc|document|passage)/.test(key) || key === "");
  const finalColumn = column("final", "final_score");
  const relevanceColumn = column("relevance", "relevance_score", "score");
  const statedColumn = finalColumn !== -1 ? finalColumn : relevanceColumn;
  const topicalColumn = finalColumn !== -1 ? relevanceColumn : column("topicality");
  if (docColumn === -1 || statedColumn === -1) return [];
  const judgments: Judgment[] = [];
  const seen = new Set<number>();
  for (const cells of rows.slice(headerAt + 1)) {
    const doc = Number(/\d+/.exec(cells[docColumn] ?? "")?.[0]);
    if (!Number.isInteger(doc) || doc < 1 || doc > batchSize || seen.has(doc)) continue;
    const statedFinal = parseScoreToken(
      cells[statedColumn] ?? "",
      keys.length === 0 ? RELEVANCE_MAX : undefined,
    );
    seen.add(doc);
    if (statedFinal === undefined) {
      judgments.push({ position: doc - 1, criteria: {}, unreadable: true });
      continue;
    }
    const pairs = rows[headerAt]!.flatMap((label, index) =>
      index === docColumn || index === statedColumn ? [] : [{
        label: index === topicalColumn ? "Topicality" : label,
        raw: cells[index] ?? "",
      }]
    );
    judgments.push(judgmentOf(doc, statedFinal, pairs, keys, undefined));
  }
  return judgments;
}
