import { canonicalLabels } from "./labels.ts";
import { canonicalNotation } from "./notation.ts";
import { setReasoningAside } from "./reasoning.ts";

/**
 * What every reply reader does before it reads (docs/model-replies.md,
 * "Reading rules"): one form of digits and quotes, refusals recognised,
 * quoted text set aside, revisions noticed. Readers in `shared/` and in the
 * functions call these so the rules hold the same everywhere.
 */

/** Quote marks models and keyboards produce, mapped to the two ASCII ones. */
const QUOTES: Readonly<Record<string, string>> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u00B4": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2033": '"',
  "\u00AB": '"',
  "\u00BB": '"',
};

/** The value of a decimal digit of any script: its place in its run of ten (U+0660 … U+0669). */
function digitValue(char: string): number {
  const code = char.codePointAt(0)!;
  let zero = code;
  while (zero > code - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return (code - zero) % 10;
}

/**
 * A reply in one form, its thinking set aside first (`<think>…</think>`,
 * see `reasoning.ts`): NFKC (fullwidth `２` is `2`, `：` is `:`, `ﬁ` is
 * `fi`), every script's decimal digits as ASCII (Arabic-Indic `٤` is `4`),
 * curly quotes and primes as `'` and `"`, zero-width characters gone; then
 * values in notations (`\boxed{2}`, `<score>2</score>`) as labelled lines
 * (`notation.ts`), and labels and document names of other languages in
 * English (`Puntuación: 2` is `Score: 2`, `文档1` is `Doc 1`; `labels.ts`).
 *
 * @example
 * normalizeReply("Score: ２ — Assistant B’s"); // "Score: 2 — Assistant B's"
 */
export function normalizeReply(text: string): string {
  return canonicalLabels(canonicalNotation(normalizeCharacters(setReasoningAside(text).answer)));
}

/** NFKC, every script's digits as ASCII, curly quotes as straight ones, zero-width characters gone. */
function normalizeCharacters(text: string): string {
  return text.normalize("NFKC")
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, "")
    .replace(
      /[\u2018\u2019\u201A\u201B\u2032\u00B4\u201C-\u201F\u2033\u00AB\u00BB]/g,
      (q) => QUOTES[q]!,
    )
    .replace(/\p{Nd}/gu, (char) => char.charCodeAt(0) < 128 ? char : String(digitValue(char)));
}

/**
 * A refusal: the reply opens by declining ("I'm sorry, but I can't…", "As
 * an AI language model, I cannot…", "I apologize, but I am unable to…").
 * A refusal is never read as a value, however it goes on.
 */
const REFUSAL_OPENING =
  /^\W*(?:(?:I'?m|I\s+am)\s+(?:very\s+|so\s+)?sorry|(?:I'm|I\s+am)\s+(?:not\s+able|unable|afraid)|sorry|(?:I\s+)?apologi[sz]e|unfortunately|as\s+an\s+ai(?:\s+language)?\s+model|I\s+(?:can(?:no|')t|cannot|won'?t|will\s+not|am\s+(?:not\s+able|unable)|'m\s+(?:not\s+able|unable)|must\s+decline|do\s+not\s+feel\s+comfortable|don't\s+feel\s+comfortable))\b/i;
// The model declining in the first person: "the document cannot answer it" declines nothing.
const DECLINES =
  /\b(?:I|I'm|I\s+am|we)\s+(?:(?:really|simply|afraid\s+I)\s+)?(?:(?:can(?:no|')t|cannot)(?!\s+(?:say|tell|be\s+(?:sure|certain)|help\s+but|deny|stress|emphasi[sz]e|overstate))|won'?t|will\s+not|(?:am\s+|'m\s+)?(?:unable|not\s+able)|must\s+decline|(?:have\s+to\s+|must\s+)?refuse|do\s+not\s+feel|don't\s+feel)|\b(?:I'm|I\s+am)\s+(?:unable|not\s+able)\b/i;

/**
 * Whether the reply is a refusal: its opening sentence declines the task in
 * the first person. "I'm sorry, but the passage is off-topic. Score: 0" and
 * "Unfortunately, the document cannot answer it. Score: 0" are not (they
 * decline nothing).
 *
 * @example
 * isRefusal("I'm sorry, but I can't help with that."); // true
 */
export function isRefusal(text: string): boolean {
  const opening = normalizeReply(text).trim().split(/(?<=[.!?])\s+|\n/)[0] ?? "";
  return REFUSAL_OPENING.test(opening) && DECLINES.test(opening);
}

/** A line that only declines or signs off ("If you have another question, feel free to ask!"). */
export function isRefusalOrSignOff(line: string): boolean {
  const text = line.trim();
  return isRefusal(text) ||
    /^\W*(?:if\s+you\s+(?:have|need|want)|feel\s+free|let\s+me\s+know|I\s+hope\s+this\s+helps|is\s+there\s+anything\s+else)\b/i
      .test(text);
}

/**
 * Text quoted inside a reply ("…" spans of two words or more) replaced by a
 * placeholder: a model quoting a document's `Relevance: 10` or "ignore the
 * others" is reporting it, not judging, so readers never see it. A quoted
 * single token (`"2"`, `"B"`) stays.
 *
 * @example
 * withoutQuotedText('It says "Score: 2" but is off-topic. Score: 0'); // 'It says "…" but is off-topic. Score: 0'
 */
export function withoutQuotedText(text: string): string {
  return text.replace(
    /"([^"\n]*)"/g,
    (whole, inner: string) => /[\s:=]/.test(inner.trim()) ? '"…"' : whole,
  );
}

/**
 * A phrase that takes back what was said before it: "actually no", "wait",
 * "on reflection", "on second thought", "correction", "correcting myself",
 * "revised", "let me reconsider", "I'm changing my …". What follows it is
 * the reply's verdict; the last stated value wins.
 */
export const REVISION =
  /\b(?:actually(?:,)?\s+(?:no|not)\b|wait\b|hmm\b|on\s+(?:second\s+thought|reflection|closer\s+(?:look|reading|inspection))|looking\s+(?:again|closer)|re-?reading|correction\b|correcting\s+(?:myself|that)|I\s+(?:was\s+wrong|misread|made\s+a\s+mistake|need\s+to\s+correct|should\s+correct)|let\s+me\s+(?:reconsider|correct|revise)|(?:I'?m|I\s+am)\s+(?:changing|revising|lowering|raising)|revised\b|(?:re)?considering\s+again|after\s+(?:all|checking|further\s+thought)|no,\s+wait|scratch\s+that|I\s+take\s+(?:that|it)\s+back)/i;

/** Where the last revision phrase in `text` starts, or -1. */
export function lastRevisionAt(text: string): number {
  let at = -1;
  for (const match of text.matchAll(new RegExp(REVISION.source, "gi"))) at = match.index;
  return at;
}
