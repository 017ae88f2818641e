import { z } from "zod";
import type { Verdict } from "../../shared/judge/types.ts";
import { extractJsonObject } from "../../shared/llm/json.ts";
import { completeFieldsOfCutObject } from "../../shared/llm/json.ts";
import {
  isRefusal,
  lastRevisionAt,
  normalizeReply,
  withoutQuotedText,
} from "../../shared/llm/reply-text.ts";
import { withoutConditionals } from "../../shared/llm/revisions.ts";
import { parseVerdictValue } from "./parse.ts";

const VERDICT_TOKEN = /\[\[\s*([ABC])\s*\]\]/gi;

/** A verdict as read, and whether the reply changed its verdict on the way (the last wins). */
export type ReadVerdict = { verdict: Verdict; revised: boolean };

/**
 * A pairwise verdict from free text, as a careful reader takes it. The
 * reply is normalised first (curly `’` is `'`), a refusal is none and
 * quoted text is set aside. The format's `[[A]]` token wins when there is
 * one (the last, since judges quote the format first); else the JSON
 * `verdict` (also from an object cut off after it); else, when the reply
 * takes back what it said ("On reflection, though, Assistant B wins"), the
 * verdict after its last revision; else a `Verdict: A` / `Final verdict:
 * Assistant B` / `Winner: tie` line; else the prose verdicts ("Assistant A
 * is better.", "I'd go with B", "equally good"; "not a tie" is no tie),
 * when they all say the same. Two different verdicts in lines or prose are
 * none: the reply is unreadable, not a tie.
 */
export function readVerdictText(text: string): Verdict | undefined {
  return readVerdictRevised(text)?.verdict;
}

/**
 * `readVerdictText`, saying also whether the reply revised its verdict. A
 * conditional verdict ("if the user cared about brevity, [[A]] would be
 * better") is read only when the reply states no other.
 */
export function readVerdictRevised(reply: string): ReadVerdict | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  const stated = withoutConditionals(text);
  return readStatedVerdict(stated) ?? (stated === text ? undefined : readStatedVerdict(text));
}

function readStatedVerdict(text: string): ReadVerdict | undefined {
  const tokens = [...text.matchAll(VERDICT_TOKEN)].map((match) => toVerdict(match[1]!));
  if (tokens.length > 0) return { verdict: tokens.at(-1)!, revised: unique(tokens).length > 1 };
  const object = verdictObject.safeParse(
    extractJsonObject(text) ?? completeFieldsOfCutObject(text),
  );
  const structured = object.success ? parseVerdictValue(object.data.verdict) : undefined;
  if (structured) return { verdict: structured, revised: false };
  const plain = withoutQuotedText(text).replace(/[*_`#"]/g, "");
  const revisedAt = lastRevisionAt(plain);
  if (revisedAt !== -1) {
    const after = unique(verdictsIn(plain.slice(revisedAt)));
    const before = unique(verdictsIn(plain.slice(0, revisedAt)));
    if (after.length === 1) {
      return { verdict: after[0]!, revised: before.some((verdict) => verdict !== after[0]) };
    }
    if (after.length > 1) return undefined;
  }
  const once = (verdict: Verdict | undefined) => verdict ? { verdict, revised: false } : undefined;
  const labelled = unique(
    [...plain.matchAll(LABELLED)].map((match) => toVerdict(match[1]!)),
  );
  if (labelled.length > 0) return labelled.length === 1 ? once(labelled[0]) : undefined;
  const whole = parseVerdictValue(plain) ?? (TIE_ONLY.test(plain.trim()) ? "C" : undefined);
  if (whole) return once(whole);
  const prose = unique(proseVerdicts(plain));
  return prose.length === 1 ? once(prose[0]) : undefined;
}

/** Every verdict a stretch of text states, labelled or in prose, in no particular order. */
function verdictsIn(text: string): Verdict[] {
  return [
    ...[...text.matchAll(LABELLED)].map((match) => toVerdict(match[1]!)),
    ...proseVerdicts(text),
  ];
}

/** A negation just before a match: "not a tie", "wouldn't call it a tie", "I don't prefer A". */
function negated(text: string, at: number): boolean {
  return /(?:\b(?:not|never|no|hardly|neither)\b|n't\b)[^.!?;:]{0,24}$/i.test(
    text.slice(Math.max(0, at - 30), at),
  );
}

function proseVerdicts(text: string): Verdict[] {
  return [
    ...[...text.matchAll(BETTER)].map((match) => toVerdict(match[1] ?? match[2] ?? match[3])),
    ...[...text.matchAll(PREFER)].filter((match) => !negated(text, match.index))
      .map((match) => toVerdict(match[1] ?? match[2])),
    ...([...text.matchAll(TIE)].some((match) => !negated(text, match.index)) ? ["C" as const] : []),
  ];
}

const verdictObject = z.object({ verdict: z.unknown() });

const SIDE = String.raw`(?:assistant|answer|response)?\s*\[?\[?\s*([AB]|tie|C)\b[ \t]*\]?\]?`;

/** `Verdict: A`, `Final verdict: Assistant B`, `Winner - tie`, `Better answer: A`. */
const LABELLED = new RegExp(
  String
    .raw`(?:^|\n)[^\w\n]*(?:(?:my|the|final|overall|revised|corrected|new)\s+)*(?:verdict|winner|decision|judge?ment|(?:final\s+)?answer|better\s+(?:answer|response)|choice|result)\s*(?::|=|-|is)\s*${SIDE}`,
  "gi",
);

/** "Assistant A is better", "Answer B is the better answer", "A wins", "B is preferred". */
const BETTER = new RegExp(
  String
    .raw`\b(?:assistant|answer|response)\s+([AB])(?:'s\s+(?:answer|response))?\s+(?:is|was)\s+(?:(?:clearly|slightly|much|significantly|far|somewhat|actually|definitely|overall|marginally|indeed|obviously)\s+)*(?:the\s+)?(?:better|superior|stronger|preferred|preferable|more\s+(?:helpful|accurate|complete|correct|useful))|\b(?:assistant|answer|response)\s+([AB])\s+wins\b|(?:^|[.;:!?]\s+|\n\s*)([AB])\s+(?:is|was)\s+(?:(?:clearly|slightly|much|far|definitely)\s+)?(?:the\s+)?(?:better|stronger|superior)\b`,
  "gi",
);

/** "I prefer Assistant B", "I choose answer A", "I'd go with B", "My choice is A". */
const PREFER = new RegExp(
  String
    .raw`\bI(?:'d|\s+would|\s+will|'ll)?\s+(?:prefer|choose|pick|favou?r|go\s+with|select|side\s+with|vote\s+for|lean\s+towards?)\s+(?:assistant\s+|answer\s+|response\s+)?([AB])\b(?!')|\bmy\s+(?:vote|pick|choice|preference)\s+(?:goes\s+to|is(?:\s+for)?|would\s+be|:)\s*:?\s*(?:assistant\s+|answer\s+|response\s+)?([AB])\b(?!')`,
  "gi",
);

/** "It's a tie", "Both answers are equally good", "neither is better". */
const TIE =
  /\b(?:it(?:'s| is) a tie|tie\b|equally\s+(?:good|bad|helpful|strong|weak|accurate)|neither\s+(?:answer\s+|assistant\s+|response\s+)?is\s+better|no\s+clear\s+winner)/gi;
const TIE_ONLY = /^\W*(?:tie|draw|c)\W*$/i;

function toVerdict(word: string | undefined): Verdict {
  const upper = (word ?? "").toUpperCase();
  return upper === "A" ? "A" : upper === "B" ? "B" : "C";
}

function unique(verdicts: readonly Verdict[]): Verdict[] {
  return [...new Set(verdicts)];
}
