import { z } from "zod";
import { extractJsonObject } from "../llm/json.ts";
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

/**
 * A batch reply's judgments in either output mode, as the batch reads it: a
 * JSON `{"documents": [...]}` (bare or fenced), else the text lines or table.
 */
export function readJudgments(
  text: string,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const structured = parseStructuredJudgments(extractJsonObject(text), batchSize, criteria);
  return structured.length > 0 ? structured : parseTextJudgments(text, batchSize, criteria);
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

function parseNumber(token: string): number | undefined {
  const cleaned = token.trim().replace(/\s*\([^()]*\)\s*$/, "").replace(/[.)\]]+$/, "")
    .replace(/\s*(?:\/|out\s+of)\s*\d+$/, "").trim();
  return NUMBER.test(cleaned) ? Number(cleaned) : undefined;
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
 * `, Topicality: R` (the 0-10 relevance) and `, Reason: ...`; else a
 * markdown table with a document column. Built for what models really write:
 * - decimals are kept (`6.9` is 6.9, not 6); `7/10` is 7;
 * - `Document 1: Relevance: 8`, `[1] Relevance: 8` and `Doc 1 - Score: 8` start a line too;
 * - the paper's own labels name criteria (`Depth of Content: 4` is depth);
 * - numbers outside 1..N are not documents (`Doc: 0` never wraps to the last);
 * - a line whose score is unreadable (`Relevance: high`) makes that document
 *   `unreadable`, unless another line for it has a score; no other line moves;
 * - the first line with a score for a document wins;
 * - prose, markdown emphasis, bullets and code fences around lines are ignored.
 * Each line is read on its own, so document text quoted by a model cannot
 * shift another document's score, and a score line without a document
 * label (a quoted `Relevance: 10`) is no judgment.
 */
export function parseTextJudgments(
  text: string,
  batchSize: number,
  criteria: readonly Criterion[],
): Judgment[] {
  const keys = criteria.map((c) => c.name);
  const judgments: Judgment[] = [];
  const seen = new Set<number>();
  const unreadable = new Set<number>();
  for (const rawLine of text.split(/\r?\n/)) {
    // Emphasis marks go; an underscore inside a word (`methodological_rigor`) stays.
    const line = rawLine.replace(/[*`#]|(?<!\w)_|_(?!\w)/g, "");
    const start = LINE_START.exec(line);
    if (!start) continue;
    const doc = Number(start[1] ?? start[2]);
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
    if (statedFinal === undefined) {
      unreadable.add(doc);
      continue;
    }
    seen.add(doc);
    const pairs = [...pairTokens.join(",").matchAll(PAIR)].map((pair) => ({
      label: pair[1]!,
      value: parseNumber(pair[2] ?? ""),
    }));
    judgments.push(judgmentOf(doc, statedFinal, pairs, keys, reason));
  }
  if (judgments.length === 0) return parseTableJudgments(text, batchSize, keys);
  for (const doc of unreadable) {
    if (!seen.has(doc)) judgments.push({ position: doc - 1, criteria: {}, unreadable: true });
  }
  return judgments;
}

/** One judgment from its stated final and labelled pairs (see `parseTextJudgments`). */
function judgmentOf(
  doc: number,
  statedFinal: number,
  pairs: readonly { label: string; value: number | undefined }[],
  keys: readonly string[],
  reason: string | undefined,
): Judgment {
  let relevance: number | undefined;
  const scores: Record<string, number> = {};
  for (const { label, value } of pairs) {
    if (value === undefined) continue;
    const key = criterionKey(label);
    if (key === "topicality" || key === "topical_relevance") {
      relevance = clamp(value, RELEVANCE_MAX);
      continue;
    }
    const named = criterionNamed(label, keys);
    if (named && scores[named] === undefined) scores[named] = clamp(value, CRITERION_MAX);
  }
  const complete = relevance !== undefined && keys.every((key) => scores[key] !== undefined);
  return {
    position: doc - 1,
    relevance: complete
      ? relevance
      : keys.length === 0
      ? clamp(statedFinal, RELEVANCE_MAX)
      : undefined,
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
    const statedFinal = parseNumber(cells[statedColumn] ?? "");
    seen.add(doc);
    if (statedFinal === undefined) {
      judgments.push({ position: doc - 1, criteria: {}, unreadable: true });
      continue;
    }
    const pairs = rows[headerAt]!.flatMap((label, index) =>
      index === docColumn || index === statedColumn ? [] : [{
        label: index === topicalColumn ? "Topicality" : label,
        value: parseNumber(cells[index] ?? ""),
      }]
    );
    judgments.push(judgmentOf(doc, statedFinal, pairs, keys, undefined));
  }
  return judgments;
}
