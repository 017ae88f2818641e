import { z } from "zod";
import { completeFieldsOfCutObject, extractJsonObject } from "./json.ts";
import { isRefusal, lastRevisionAt, normalizeReply, withoutQuotedText } from "./reply-text.ts";
import { lastRetractionAt, revisionsIn, withoutConditionals } from "./revisions.ts";

/**
 * Reading one score out of a model's free-text reply the way a careful
 * person would: `**Relevance:** 2`, `Score: 2 (very relevant)`, fenced
 * JSON, `4 out of 5`, `3/5`, `Score: 4.5`, `0,8`, "on a scale from 0 to
 * 10 ... 8", a bare `2`, `I would give it a 4`. What a person could not
 * settle (two different scores in prose, a score of another scale that
 * does not convert, a negated "I would not give it a 2") is `undefined`:
 * the caller marks the reply degraded rather than guess.
 */
export type ScoreScale = {
  /** The top of the scale the prompt asked for; 0 is the bottom. */
  max: number;
  /** Whole numbers only (a 0/1/2 grade); otherwise decimals stand (`4.5`). */
  integer: boolean;
  /** Labels a score line may carry besides "score", "rating" and "grade" (lower case). */
  labels?: readonly string[];
  /** Phrases that name a value on this scale (`very relevant` → 2), read only as a whole value. */
  words?: readonly (readonly [RegExp, number])[];
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** "out of" in the languages labels are read in (`4 von 5`, `3 sur 5`, `4 de 5`, `4 su 5`). */
const OUT_OF = String.raw`out\s+of|von|sur|de|su|em`;

/** A number (`2`, `4.5`, `0,8`, `.5`, `two`), then optionally `/ 5`, `out of 5` or `%`. */
const VALUE = String.raw`(\d+(?:[.,]\d+)?|\.\d+|${
  Object.keys(NUMBER_WORDS).join("|")
})(?:\s*(?:\/|${OUT_OF})\s*(\d+(?:\.\d+)?)|\s*(%))?`;

/** A stated scale: "on a scale from 0 to 10", "(0-5)", "scale of 1-5". */
const STATED_SCALE =
  /(?:scale|range)\s*(?:of|from)?\s*(\d+)\s*(?:to|-|–)\s*(\d+)|\(\s*(\d+)\s*(?:-|–|to)\s*(\d+)\s*\)/i;

/** What may follow a value on its line: a parenthesis, a dash and words, punctuation. */
const TAIL = String
  .raw`(?:\s*\([^)]*\))?(?:\s*(?:[-–—,;:]|[.!?](?=\s)|because|as|since)\s*\D.*)?[\s.!:|]*$`;

function toNumber(token: string): number | undefined {
  const word = NUMBER_WORDS[token.toLowerCase()];
  if (word !== undefined) return word;
  const value = Number(token.replace(",", "."));
  return Number.isFinite(value) ? value : undefined;
}

/** Lines without markdown emphasis, quotes, bullets or table bars. */
function plainLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) =>
    line.replace(/[*_`"]/g, "").replace(/\|/g, " : ").replace(/^(?:[\s>#•:]|-(?=\s))+/, "").trim()
  );
}

/**
 * A value on `scale`, from a number and an optional denominator or stated
 * scale: `3/5` on a 0-5 scale is 3; `8/10` is 4; `7/10` on a 0/1/2 grade
 * does not convert and is none.
 */
function onScale(
  value: number | undefined,
  over: number | undefined,
  scale: ScoreScale,
): number | undefined {
  if (value === undefined) return undefined;
  let converted = value;
  if (over !== undefined && over > 0 && over !== scale.max) converted = (value / over) * scale.max;
  converted = Math.round(converted * 1e9) / 1e9;
  if (!(converted >= 0 && converted <= scale.max)) return undefined;
  if (scale.integer && !Number.isInteger(converted)) return undefined;
  return converted;
}

function statedMax(text: string): number | undefined {
  const match = STATED_SCALE.exec(text);
  if (!match) return undefined;
  const top = Number(match[2] ?? match[4]);
  return Number.isFinite(top) && top > 0 ? top : undefined;
}

/** Grades as words that name an end of any scale: `excellent` is its top, `none` its bottom. */
const SCALE_ENDS: readonly (readonly [RegExp, "top" | "bottom"])[] = [
  [/^(?:excellent|perfect|outstanding|maximum|max|full(?:y\s+relevant)?)$/i, "top"],
  [/^(?:none|nil|nothing|minimum|min|null)$/i, "bottom"],
];

function wordValue(phrase: string, scale: ScoreScale): number | undefined {
  const cleaned = phrase.replace(/[().!,;:]+/g, " ").trim();
  const found = (scale.words ?? []).filter(([pattern]) => pattern.test(cleaned));
  if (found.length === 1) return found[0]![1];
  const end = SCALE_ENDS.find(([pattern]) => pattern.test(cleaned))?.[1];
  return end === "top" ? scale.max : end === "bottom" ? 0 : undefined;
}

const jsonScore = z.record(z.string(), z.unknown());

function fromJson(text: string, scale: ScoreScale, keys: readonly string[]): number | undefined {
  // A cut-off object is read for the fields it completed (`{"score": 2, "reason": "The…`).
  const object = jsonScore.safeParse(extractJsonObject(text) ?? completeFieldsOfCutObject(text));
  if (!object.success) return undefined;
  for (const key of keys) {
    const entry = Object.entries(object.data).find(([name]) => name.toLowerCase() === key);
    if (!entry) continue;
    const raw = entry[1];
    if (typeof raw === "number") return onScale(raw, undefined, scale);
    if (typeof raw === "string") return readScore(raw, scale);
  }
  return undefined;
}

/** A score as read, and whether the reply revised itself on the way (the last stated value wins). */
export type ReadScore = { value: number; revised: boolean };

/**
 * The score a reply gives on `scale`, or `undefined` when a careful reader
 * could not say. The reply is normalised first (`２`, `٤`, curly quotes) and
 * a refusal is none. In order: a JSON object's `score` (or a label's) field,
 * also from an object cut off after that field; the last labelled line or
 * clause (`Score: 2`, `**Relevance:** 2/2`, `Relevance: 2, Accuracy: 1`, a
 * table row `| Score | 4 |`) whose value fits the scale, quoted text set
 * aside; a reply that is only a value; the one value prose gives ("I would
 * rate it 4 out of 5"), when it gives one.
 *
 * @example
 * readScore("The answer is close.\n\n**Similarity:** 4 out of 5", { max: 5, integer: false }); // 4
 */
export function readScore(text: string, scale: ScoreScale): number | undefined {
  return readScoreRevised(text, scale)?.value;
}

/**
 * `readScore`, saying also whether the reply revised its score (`revised`
 * in the judgment). Conditional clauses ("if it had kept the caveat, it
 * would be a 5") are read last: only when the reply states nothing else.
 */
export function readScoreRevised(reply: string, scale: ScoreScale): ReadScore | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  const labels = ["score", "rating", "grade", "result", ...(scale.labels ?? [])];
  // JSON is read whole: its strings may hold a conditional clause that is no verdict.
  const json = fromJson(text, scale, labels);
  if (json !== undefined) {
    return revisedAfter(text, scale, labels, {
      value: json,
      revised: false,
      statedAt: lastStatementAt(text, labels),
    });
  }
  const stated = withoutConditionals(text);
  return readStated(stated, scale) ?? (stated === text ? undefined : readStated(text, scale));
}

function readStated(text: string, scale: ScoreScale): ReadScore | undefined {
  const labels = ["score", "rating", "grade", "result", ...(scale.labels ?? [])];
  const read = readOnce(text, scale, labels);
  return read && revisedAfter(text, scale, labels, read);
}

/**
 * A reading, then what the reply commits to after the statement it came
 * from ("Score: 2 … so I'd lower that to 0", a note after the JSON: "the
 * score should be 0"): the last such value wins, and a retraction with no
 * value ("I'm not sure about that any more") leaves nothing.
 */
function revisedAfter(
  text: string,
  scale: ScoreScale,
  labels: readonly string[],
  read: ReadScore & { statedAt: number },
): ReadScore | undefined {
  const later = revisionsIn(text, labels, true).filter((revision) => revision.at > read.statedAt);
  const last = later.at(-1);
  const retracted = lastRetractionAt(text);
  if (!last) {
    return retracted > read.statedAt ? undefined : { value: read.value, revised: read.revised };
  }
  if (retracted > last.at) return undefined;
  const value = onScale(
    toNumber(last.value),
    statedOver(text)(last.percent ? "100" : last.over),
    scale,
  );
  return value === undefined ? undefined : { value, revised: read.revised || value !== read.value };
}

/** Where the last statement of one of `labels` (or the last object) ends. */
function lastStatementAt(text: string, labels: readonly string[]): number {
  let at = text.lastIndexOf("}");
  const label = new RegExp(String.raw`\b(?:${labels.join("|")})\b[^\n:=]{0,24}[:=]\s*\S`, "gi");
  for (const match of text.matchAll(label)) at = Math.max(at, match.index + match[0].length);
  return at;
}

function readOnce(
  text: string,
  scale: ScoreScale,
  labels: readonly string[],
): (ReadScore & { statedAt: number }) | undefined {
  const statedAt = lastStatementAt(text, labels);
  const unquoted = withoutQuotedText(text);
  const labelled = readLabelled(unquoted, labels, scale);
  if (labelled === "unsettled") return undefined;
  if (labelled !== undefined) return { ...labelled, statedAt };
  const overOf = statedOver(unquoted);
  const whole = plainLines(unquoted).filter(Boolean).join(" ");
  const bare = new RegExp(`^${VALUE}[\\s.!—–-]*$`, "i").exec(whole);
  const once = (value: number | undefined) =>
    value === undefined ? undefined : { value, revised: false, statedAt: 0 };
  if (bare) return once(onScale(toNumber(bare[1]!), overOf(bare[3] ? "100" : bare[2]), scale));
  // A reply that opens on its value and then comments ("0.8 — a bit generous; …").
  const leading = new RegExp(`^${VALUE}(?=\\s*(?:[—–;]|\\s-\\s))`, "i").exec(whole);
  if (leading) {
    return once(onScale(toNumber(leading[1]!), overOf(leading[3] ? "100" : leading[2]), scale));
  }
  if (whole.length <= 40) {
    const word = wordValue(whole, scale);
    if (word !== undefined) return once(word);
  }
  if (lastRevisionAt(whole) !== -1) return undefined;
  return once(fromProse(whole, scale, overOf) ?? onStatedScale(whole, scale));
}

/** "On a scale from 0 to 10, this passage is an 8": the one number besides the stated scale. */
function onStatedScale(text: string, scale: ScoreScale): number | undefined {
  const stated = statedMax(text);
  if (stated === undefined) return undefined;
  const numbers = [
    ...text.replace(STATED_SCALE, " ").matchAll(/(?<![\w.,])\d+(?:[.,]\d+)?(?![\w.]*\w)/g),
  ];
  return numbers.length === 1 ? onScale(toNumber(numbers[0]![0]), stated, scale) : undefined;
}

/** The denominator of a value: its own (`/ 5`), else the scale the reply states. */
function statedOver(text: string): (over: string | undefined) => number | undefined {
  const stated = statedMax(text);
  return (over) => over !== undefined ? Number(over) : stated;
}

/** Words that may stand before a label: `Final score`, `Revised relevance`, `My rating`. */
const LABEL_PREFIX = String
  .raw`(?:(?:final|overall|my|the|total|relevance|similarity|revised|corrected|updated|new|adjusted|initial|first)\s+)*`;

function labelPattern(labels: readonly string[]): string {
  return String.raw`${LABEL_PREFIX}(?:${
    labels.join("|")
  }|(?:final|revised|corrected|updated)\s+(?:answer|judge?ment|assessment))(?:\s+(?:score|rating|grade|threshold))?\s*(?:\([^)]*\))?\s*`;
}

/**
 * A line cut into clauses where a new label starts (`Relevance: 2, Accuracy:
 * 1`, `Correcting myself: Score: 2`, `Relevance = 2 | Accuracy = 0`).
 */
function clauses(line: string, labels: readonly string[]): string[] {
  const next = new RegExp(
    String.raw`(?<=[.!?,;:|—–])\s+(?=${labelPattern(labels)}(?:[:=]))`,
    "gi",
  );
  return line.split(next);
}

/** After a revision phrase, the value the clause settles on: `…, so 1.`, `make it 3`. */
const SETTLED = new RegExp(
  String
    .raw`(?:\bso|\bthus|\bhence|\btherefore|\bmake\s+(?:it|that)|\bchanging\s+(?:it\s+)?to|\blower(?:ing)?\s+(?:it\s+)?to|\braise\s+(?:it\s+)?to|\bto|\binstead|\brather|→|=>|\bgive\s+(?:it\s+)?(?:an?\s+)?|\bit(?:'s|\s+is)|\bscore(?:\s+is)?\s*[:=]?)\s*(?:an?\s+)?${VALUE}[\s.!)]*$`,
  "i",
);

/**
 * The value on the last line or clause labelled with one of `labels`
 * (`Accuracy: 2`, `**Accuracy score:** 2/2`, `| Accuracy | 2 |`) that fits
 * `scale`; lines whose value does not fit are skipped, so an earlier one
 * stands. A clause that takes its value back ("2 — actually no, …, so 1")
 * gives the value it settles on, or leaves the reading unsettled.
 *
 * @example
 * readLabelledScore("Relevance: 2\nAccuracy: 1", ["accuracy"], { max: 2, integer: true }); // 1
 */
export function readLabelledScore(
  text: string,
  labels: readonly string[],
  scale: ScoreScale,
): number | undefined {
  const read = readLabelled(withoutQuotedText(normalizeReply(text)), labels, scale);
  return read === "unsettled" ? undefined : read?.value;
}

/** `readLabelledScore` with its revision; `"unsettled"` when the last revision gives no value. */
export function readLabelled(
  text: string,
  labels: readonly string[],
  scale: ScoreScale,
): ReadScore | "unsettled" | undefined {
  const overOf = statedOver(text);
  const labelled = new RegExp(
    String.raw`(?:^|[.!?;]\s+)${labelPattern(labels)}(?:[:=]|is|of|-|–|—)\s*(.*)$`,
    "i",
  );
  const valueLine = new RegExp(`^${VALUE}${TAIL}`, "i");
  const values: number[] = [];
  let unsettled = false;
  let revisedInClause = false;
  for (const line of plainLines(text)) {
    for (const clause of clauses(line, labels)) {
      const label = labelled.exec(clause);
      if (!label) continue;
      const rest = label[1]!.trim();
      const number = valueLine.exec(rest);
      let value = number
        ? onScale(toNumber(number[1]!), overOf(number[3] ? "100" : number[2]), scale)
        : wordValue(rest, scale) ?? wordValue(firstPhrase(rest), scale);
      const revisedAt = lastRevisionAt(rest);
      if (number && revisedAt !== -1) {
        const settled = SETTLED.exec(rest.slice(revisedAt));
        const first = value;
        value = settled
          ? onScale(toNumber(settled[1]!), overOf(settled[3] ? "100" : settled[2]), scale)
          : undefined;
        if (value === undefined) {
          unsettled = true;
          continue;
        }
        if (first !== undefined && first !== value) revisedInClause = true;
      }
      if (value !== undefined) {
        values.push(value);
        unsettled = false;
      }
    }
  }
  if (unsettled) return "unsettled";
  if (values.length === 0) return undefined;
  return { value: values.at(-1)!, revised: revisedInClause || new Set(values).size > 1 };
}

/** A word grade's own words, before its comment: "Somewhat relevant — it discusses…". */
function firstPhrase(rest: string): string {
  return rest.split(/\s*(?:[—–,;.(:]|\s-\s|\bbecause\b|\bsince\b|\bas\b)/i)[0] ?? "";
}

const PROSE = new RegExp(
  String
    .raw`\b(?:(?:give|rate|score|grade|assign)\s+(?:it|this(?:\s+\w+)?|the\s+\w+)?\s*(?:a|an|as|at)?|(?:score|rating|grade)\s+(?:of|is)|(?:deserves|earns|merits|gets)\s+(?:a|an)?|rated|scored)\s*${VALUE}(?![\d.,]*\d)`,
  "gi",
);

/** A fraction stated anywhere in prose: "4 out of 5", "3/5". */
const FRACTION = new RegExp(
  String
    .raw`(?<![\d.\/])(\d+(?:[.,]\d+)?)\s*(?:\/|${OUT_OF})\s*(\d+(?:\.\d+)?)(?![\d.]*\d|\s*\/)`,
  "gi",
);

/** The one value prose gives; a negated one ("would not give it a 2") or two different are none. */
function fromProse(
  text: string,
  scale: ScoreScale,
  overOf: (over: string | undefined) => number | undefined,
): number | undefined {
  const values = new Set<number>();
  for (const match of [...text.matchAll(PROSE), ...text.matchAll(FRACTION)]) {
    const before = text.slice(Math.max(0, match.index - 24), match.index);
    if (/\b(?:not|n't|never|no)\b/i.test(before)) return undefined;
    const value = onScale(toNumber(match[1]!), overOf(match[3] === "%" ? "100" : match[2]), scale);
    if (value === undefined) return undefined;
    values.add(value);
  }
  return values.size === 1 ? [...values][0] : undefined;
}
