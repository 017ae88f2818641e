import { relaxedJson } from "./relaxed-json.ts";

/** How many `{` a reply's object is looked for from: a bound, so a reply of braces stays linear. */
const MAX_STARTS = 32;

/**
 * Finds the first balanced object in model text (models wrap JSON in prose
 * or code fences) and parses it, as JSON or, failing that, as the object
 * literals models write instead (`{'score': 2}`, `True`, trailing commas:
 * `relaxed-json.ts`); `undefined` when there is none. Brackets inside
 * strings of either quote are skipped, so `{"a": "}"}` parses.
 */
export function extractJsonObject(text: string): unknown {
  let starts = 0;
  for (
    let start = text.indexOf("{");
    start !== -1 && starts < MAX_STARTS;
    start = text.indexOf("{", start + 1), starts++
  ) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    const candidate = text.slice(start, end + 1);
    const parsed = parseObject(candidate);
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/** Where the object opened at `start` closes, or -1 when it never does. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let quote = "";
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = "";
      continue;
    }
    if (char === '"' || (char === "'" && /[\s{\[:,]/.test(text[i - 1] ?? " "))) quote = char;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i;
  }
  return -1;
}

function parseObject(candidate: string): unknown {
  for (const form of [candidate, relaxedJson(candidate)]) {
    try {
      return JSON.parse(form);
    } catch {
      // The next form, or none.
    }
  }
  return undefined;
}

/** A top-level `"key": value` whose value is complete: a following `,` or `}` proves it. */
const COMPLETE_FIELD =
  /"([^"\\]{1,64})"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*(?=[,}])/g;

/**
 * The complete fields of a JSON object the reply cut off (a token limit, a
 * stream stopped): `{"score": 2, "reason": "The passage gives` holds a
 * complete `score`. Only fields proven complete by the `,` or `}` after them
 * are read, and only at the object's top level; `undefined` when the reply
 * has a whole object (read that instead) or no cut-off one.
 *
 * @example
 * completeFieldsOfCutObject('{"score": 2, "reason": "The passage'); // { score: 2 }
 */
export function completeFieldsOfCutObject(text: string): Record<string, unknown> | undefined {
  if (extractJsonObject(text) !== undefined) return undefined;
  const start = text.indexOf("{");
  if (start === -1) return undefined;
  const fields: Record<string, unknown> = {};
  let depth = 0;
  let inString = false;
  let topLevel = "";
  for (let i = start; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      if (depth === 1) topLevel += text.slice(char === "\\" ? i - 1 : i, i + 1);
      continue;
    }
    if (char === "{" || char === "[") {
      depth++;
      // A nested value stands in as one string: its own fields are not the object's.
      if (depth === 2) topLevel += '"…"';
      else if (depth === 1) topLevel += char;
      continue;
    }
    if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) topLevel += char;
      continue;
    }
    if (char === '"') inString = true;
    if (depth === 1) topLevel += char;
  }
  for (const match of topLevel.matchAll(COMPLETE_FIELD)) {
    try {
      fields[match[1]!] = JSON.parse(match[2]!);
    } catch {
      // A field whose value does not parse is not complete.
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
