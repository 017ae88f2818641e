/**
 * An object literal as models write it when they do not write JSON, made
 * JSON: single-quoted strings (Python's `{'score': 2}`), `True` / `False` /
 * `None`, bare keys (`{score: 2}`), trailing commas and `//` comments. One
 * pass over the text, so it stays linear; what still does not parse is none.
 *
 * @example
 * relaxedJson("{'useful': True, 'reason': \"it's there\",}"); // '{"useful": true, "reason": "it\'s there"}'
 */
export function relaxedJson(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'") {
      const end = stringEnd(text, i, char);
      out += asDoubleQuoted(text.slice(i + 1, end), char);
      i = end;
      continue;
    }
    if (char === "/" && text[i + 1] === "/") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline - 1;
      continue;
    }
    if (char === ",") {
      const next = /\S/.exec(text.slice(i + 1, i + 64));
      if (next && (next[0] === "}" || next[0] === "]")) continue;
    }
    const word = /^[A-Za-z_][\w-]{0,63}/.exec(text.slice(i, i + 64))?.[0];
    if (word && !/[\w.]/.test(text[i - 1] ?? "")) {
      out += literal(word, /^\s*:/.test(text.slice(i + word.length, i + word.length + 8)));
      i += word.length - 1;
      continue;
    }
    out += char;
  }
  return out;
}

/** Where a string opened at `start` with `quote` closes (or the text's end). */
function stringEnd(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** A string's body re-quoted with `"`: inner `"` escaped, `\'` unescaped. */
function asDoubleQuoted(body: string, quote: string): string {
  if (quote === '"') return `"${body}"`;
  return `"${body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`;
}

/** Python's literals as JSON's; a bare key quoted; any other word as written. */
function literal(word: string, isKey: boolean): string {
  if (isKey) return `"${word}"`;
  const python: Record<string, string> = { True: "true", False: "false", None: "null" };
  return python[word] ?? word;
}
