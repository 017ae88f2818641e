import { z } from "zod";
import { extractJsonObject } from "../../../shared/llm/json.ts";
import { normalizeReply } from "../../../shared/llm/reply-text.ts";
import { withoutConditionals } from "../../../shared/llm/revisions.ts";
import {
  QUALITY_DIMENSIONS,
  SIMILARITY_DIMENSIONS,
  type TotDimension,
} from "../../../shared/rerank/tot/dimensions.ts";
import { readScore, type ScoreScale } from "../../../shared/llm/read-score.ts";

/*
 * Readers of the tree's three kinds of reply. Each tries the JSON a
 * structured reply holds, then reads the text the way a sloppy model writes
 * it (markdown, prose, "8/10", "75%"); scores and thresholds are clamped to
 * [0, 1]; `undefined` means nothing usable, and the caller degrades.
 */

const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** Ranges a model restates ("between 0 and 1", "[0, 1]"), which are not its answer. */
const RANGES =
  /(?:between|from|scale of|range of)\s*0(?:\.0+)?\s*(?:and|to|-|–)\s*1(?:\.0+)?\b|\[\s*0(?:\.0+)?\s*,\s*1(?:\.0+)?\s*\]/gi;

/** A number, then optionally `%`, `/ 10` or `out of 10`. */
const NUMBER =
  /(?<![\w.,])(-?(?:\d+(?:[.,]\d+)?|\.\d+))(?![\w.]*\w)\s*(%|\/\s*(\d+(?:\.\d+)?)|out of\s+(\d+(?:\.\d+)?))?/gi;

/** Text without markdown emphasis or code marks, and without restated ranges. */
function plain(text: string): string {
  return text.replace(/[*_`#]/g, " ").replace(RANGES, " ");
}

/** The values of the numbers in `text`, each with its `%` or `/ n` applied. */
function numbersIn(text: string): { value: number; at: number }[] {
  return [...text.matchAll(NUMBER)].flatMap((match) => {
    let value = Number(match[1]!.replace(",", "."));
    const over = Number(match[3] ?? match[4] ?? "");
    if (match[2] === "%") value /= 100;
    else if (over > 0) value /= over;
    return Number.isFinite(value) ? [{ value, at: match.index }] : [];
  });
}

/** ToT's scores and thresholds: decimals in [0, 1]; `8/10`, `75%` and a stated 0-10 scale convert. */
const UNIT_SCALE: ScoreScale = {
  max: 1,
  integer: false,
  labels: [...QUALITY_DIMENSIONS, ...SIMILARITY_DIMENSIONS, "value", "similarity", "quality"],
};

/** The one decimal in [0, 1] a reply holds ("I'd say 0.7."); two numbers, or one above 1, are none. */
function loneDecimal(text: string): number | undefined {
  const numbers = numbersIn(text);
  if (numbers.length !== 1) return undefined;
  const { value } = numbers[0]!;
  return value >= 0 && value <= 1 ? value : undefined;
}

/**
 * A score from a reply, as a person reads it on the 0-1 scale asked for:
 * `{"score": x}`, `**Score:** 0.9`, `0,8`, `8/10`, `75%`, "on a scale from 0
 * to 10 ... 8" (0.8), a lone decimal in prose. A number off the scale with
 * no scale of its own (a bare `8`, `1.7`, `-0.3`) is unreadable: `undefined`.
 *
 * @example
 * parseScore("**Score:** 8/10"); // 0.8
 */
export function parseScore(reply: string): number | undefined {
  const answer = normalizeReply(reply);
  return readScore(answer.replace(RANGES, " "), UNIT_SCALE) ??
    loneDecimal(plain(withoutConditionals(answer)));
}

/** What a dimension may be called in prose: "lexically", "structure", "concise". */
const DIMENSION_WORDS: Readonly<Record<TotDimension, RegExp>> = {
  fluency: /\bfluen\w*/i,
  accuracy: /\baccura\w*/i,
  completeness: /\bcomplete\w*/i,
  conciseness: /\bconcis\w*/i,
  novelty: /\bnovel\w*/i,
  lexical: /\blexic\w*/i,
  semantic: /\bsemantic\w*/i,
  pragmatic: /\bpragmatic\w*/i,
  structural: /\bstructur\w*/i,
  stylistic: /\bstyl\w*/i,
};

/** Where each of `pool` is first named in `text`, in that order. */
function named(text: string, pool: readonly TotDimension[]): TotDimension[] {
  return pool
    .map((name) => ({ name, at: DIMENSION_WORDS[name].exec(text)?.index ?? -1 }))
    .filter((found) => found.at >= 0)
    .sort((x, y) => x.at - y.at)
    .map((found) => found.name);
}

const dimensionsObject = z.object({ dimensions: z.array(z.string()) });

/**
 * The agent's choice of `count` dimensions (2 unless `tot.dimensions_per_level`
 * says otherwise): the distinct dimensions of `pool` in the JSON's
 * `dimensions`, else those named after the last "Dimensions:" label (or
 * anywhere, without one, when at most `count` are named: more is weighing
 * options, not choosing), first named first. `dimensions` holds the first
 * `count` (maybe fewer: the caller corrects, then degrades); `more`, those a
 * labelled or JSON reply named past them (the caller says they were left out).
 *
 * @example
 * readDimensions("Dimensions: fluency, accuracy, novelty, conciseness", QUALITY_DIMENSIONS, 3);
 * // { dimensions: ["fluency", "accuracy", "novelty"], more: ["conciseness"] }
 */
export function readDimensions(
  reply: string,
  pool: readonly TotDimension[],
  count: number,
): { dimensions: TotDimension[]; more: TotDimension[] } {
  const answer = normalizeReply(reply);
  const json = dimensionsObject.safeParse(extractJsonObject(answer));
  const found = json.success
    ? json.data.dimensions.flatMap((name) => named(name, pool).slice(0, 1))
    : (() => {
      const text = plain(answer);
      const labels = [...text.matchAll(/\bdimensions?\s*:/gi)];
      const found = named(text.slice(labels.at(-1)?.index ?? 0), pool);
      return labels.length === 0 && found.length > count ? [] : found;
    })();
  const distinct = [...new Set(found)];
  return { dimensions: distinct.slice(0, count), more: distinct.slice(count) };
}

/**
 * The agent's choice, up to `count` (default 2) distinct dimensions of
 * `pool`, as `readDimensions` reads it. May return fewer.
 *
 * @example
 * parseDimensions("Dimensions: **Semantic**, lexical", SIMILARITY_DIMENSIONS); // ["semantic", "lexical"]
 */
export function parseDimensions(
  reply: string,
  pool: readonly TotDimension[],
  count = 2,
): TotDimension[] {
  return readDimensions(reply, pool, count).dimensions;
}

const thresholdsObject = z.object({ thresholds: z.record(z.string(), z.number()) });

/**
 * Thresholds by dimension: the JSON's `thresholds`, else `name: x` lines
 * (the first number after each name on its line), else, when no name is
 * written and there are exactly as many numbers as dimensions, the numbers
 * in order (the paper's comma-separated form). `0,4` is 0.4 and `40%` is
 * 0.4; a value off the 0-1 scale (`7`) is unreadable. Missing ones are left out.
 *
 * @example
 * parseThresholds("lexical: 0.4\nSemantic = 55%", ["lexical", "semantic"]); // { lexical: 0.4, semantic: 0.55 }
 */
export function parseThresholds(
  reply: string,
  dimensions: readonly TotDimension[],
): Partial<Record<TotDimension, number>> {
  const answer = normalizeReply(reply);
  const json = thresholdsObject.safeParse(extractJsonObject(answer));
  if (json.success) {
    return Object.fromEntries(
      dimensions.flatMap((name) => {
        const value = json.data.thresholds[name];
        return value === undefined ? [] : [[name, clamp(value)]];
      }),
    );
  }
  const text = plain(answer);
  const found: Partial<Record<TotDimension, number>> = {};
  for (const name of dimensions) {
    const mention = DIMENSION_WORDS[name].exec(text);
    if (!mention) continue;
    const rest = text.slice(mention.index).split("\n")[0] ?? "";
    const value = numbersIn(rest)[0]?.value;
    if (value !== undefined && value >= 0 && value <= 1) found[name] = value;
  }
  if (Object.keys(found).length > 0) return found;
  const numbers = numbersIn(text);
  if (numbers.length !== dimensions.length) return {};
  if (numbers.some(({ value }) => value < 0 || value > 1)) return {};
  return Object.fromEntries(dimensions.map((name, i) => [name, numbers[i]!.value]));
}
