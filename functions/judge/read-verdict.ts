import { z } from "zod";
import type { Verdict } from "../../shared/judge/types.ts";
import { extractJsonObject } from "../../shared/llm/json.ts";
import { parseVerdictToken, parseVerdictValue } from "./parse.ts";

/**
 * A pairwise verdict from free text, as a careful reader takes it. The
 * format's `[[A]]` token wins when there is one (the last, since judges
 * quote the format first); else a `Verdict: A` / `Final verdict: Assistant
 * B` / `Winner: tie` line; else the prose verdicts ("Assistant A is
 * better.", "Both answers are equally good."), when they all say the same.
 * Two different verdicts in lines or prose are none: the reply is
 * unreadable, not a tie.
 */
export function readVerdictText(text: string): Verdict | undefined {
  const token = parseVerdictToken(text);
  if (token) return token;
  const json = verdictObject.safeParse(extractJsonObject(text));
  const structured = json.success ? parseVerdictValue(json.data.verdict) : undefined;
  if (structured) return structured;
  const plain = text.replace(/[*_`#"]/g, "");
  const labelled = unique(
    [...plain.matchAll(LABELLED)].map((match) => toVerdict(match[1]!)),
  );
  if (labelled.length > 0) return labelled.length === 1 ? labelled[0] : undefined;
  const whole = parseVerdictValue(plain) ?? (TIE_ONLY.test(plain.trim()) ? "C" : undefined);
  if (whole) return whole;
  const prose = unique([
    ...[...plain.matchAll(BETTER)].map((match) => toVerdict(match[1] ?? match[2])),
    ...[...plain.matchAll(PREFER)].map((match) => toVerdict(match[1]!)),
    ...(TIE.test(plain) ? ["C" as const] : []),
  ]);
  return prose.length === 1 ? prose[0] : undefined;
}

const verdictObject = z.object({ verdict: z.unknown() });

const SIDE = String.raw`(?:assistant|answer|response)?\s*\[?\[?\s*([AB]|tie|C)\b\s*\]?\]?`;

/** `Verdict: A`, `Final verdict: Assistant B`, `Winner - tie`, `Better answer: A`. */
const LABELLED = new RegExp(
  String
    .raw`(?:^|\n)\W*(?:(?:my|the|final|overall)\s+)*(?:verdict|winner|decision|better\s+(?:answer|response)|choice|result)\s*(?::|=|-|is)\s*${SIDE}`,
  "gi",
);

/** "Assistant A is better", "Answer B is the better answer", "A wins", "B is preferred". */
const BETTER = new RegExp(
  String
    .raw`\b(?:assistant|answer|response)\s+([AB])(?:'s\s+(?:answer|response))?\s+(?:is|was)\s+(?:clearly\s+|slightly\s+|much\s+|significantly\s+)?(?:the\s+)?(?:better|superior|stronger|preferred|more\s+(?:helpful|accurate|complete))|\b(?:assistant|answer|response)\s+([AB])\s+wins\b`,
  "gi",
);

/** "I prefer Assistant B", "I choose answer A". */
const PREFER = /\bI\s+(?:prefer|choose|pick|favou?r)\s+(?:assistant|answer|response)\s+([AB])\b/gi;

/** "It's a tie", "Both answers are equally good", "neither is better". */
const TIE =
  /\b(?:it(?:'s| is) a tie|tie\b|equally\s+(?:good|bad|helpful|strong|weak|accurate)|neither\s+(?:answer\s+|assistant\s+|response\s+)?is\s+better|no\s+clear\s+winner)/i;
const TIE_ONLY = /^\W*(?:tie|draw|c)\W*$/i;

function toVerdict(word: string | undefined): Verdict {
  const upper = (word ?? "").toUpperCase();
  return upper === "A" ? "A" : upper === "B" ? "B" : "C";
}

function unique(verdicts: readonly Verdict[]): Verdict[] {
  return [...new Set(verdicts)];
}
