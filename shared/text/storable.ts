/**
 * Text that every index keeps and matches alike: Unicode text without NUL.
 * Postgres refuses U+0000 in `text` and `jsonb`, refuses a lone surrogate in
 * `jsonb` and turns one into U+FFFD in `text`; the embedded index would keep
 * either. So a request carrying them is refused at the door (400, naming the
 * field), on every index, and a parsed file's text is cleaned instead.
 */

/**
 * Why `text` cannot be stored or matched as it is (a NUL, or a lone
 * surrogate, and at which character), or undefined when it can.
 *
 * @example
 * unstorableText("a\u0000b"); // "holds a NUL character (U+0000) at character 1"
 */
export function unstorableText(text: string): string | undefined {
  const nul = text.indexOf("\u0000");
  const lone = text.isWellFormed() ? -1 : loneSurrogateAt(text);
  if (nul >= 0 && (lone < 0 || nul < lone)) {
    return `holds a NUL character (U+0000) at character ${nul}`;
  }
  if (lone < 0) return undefined;
  const unit = text.charCodeAt(lone).toString(16).toUpperCase();
  return `holds a lone surrogate (U+${unit}) at character ${lone}: not Unicode text`;
}

/**
 * `text` as it can be stored: NULs dropped, a lone surrogate as U+FFFD. For
 * text sift did not get from the caller as such (a PDF's broken font maps
 * glyphs to U+0000; refusing the file for it would help no one).
 */
export function storableText(text: string): string {
  return text.replaceAll("\u0000", "").toWellFormed();
}

/** Where in a JSON value a string is refused, and why. */
export type UnstorableString = { path: (string | number)[]; problem: string };

/**
 * The strings in `value` (object keys included, at any depth) that
 * `unstorableText` refuses, the first `limit` of them. A key in a path is
 * written with its bad characters escaped (`a\u0000b`), so the message that
 * names it is readable.
 *
 * @example
 * unstorableStrings({ metadata: { tags: ["ok", "b\u0000"] } });
 * // [{ path: ["metadata", "tags", 1], problem: "holds a NUL character (U+0000) at character 1" }]
 */
export function unstorableStrings(value: unknown, limit = 5): UnstorableString[] {
  const found: UnstorableString[] = [];
  // A stack, not recursion, and each step linked to its parent rather than holding a copy of its
  // path: a deeply nested body neither overflows the call stack nor costs its depth squared.
  type Step = { value: unknown; key?: string | number; parent?: Step };
  const pathOf = (step: Step, last?: string) => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const pending: Step[] = [{ value }];
  while (pending.length && found.length < limit) {
    const step = pending.pop()!;
    const current = step.value;
    if (typeof current === "string") {
      const problem = unstorableText(current);
      if (problem) found.push({ path: pathOf(step), problem });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i], key: i, parent: step });
      }
    } else if (current !== null && typeof current === "object") {
      const inside: Step[] = [];
      for (const [key, inner] of Object.entries(current)) {
        const keyProblem = unstorableText(key);
        if (keyProblem) {
          found.push({ path: pathOf(step, escaped(key)), problem: `this key ${keyProblem}` });
        } else inside.push({ value: inner, key, parent: step });
      }
      pending.push(...inside.reverse());
    }
  }
  return found.slice(0, limit);
}

/** Its index in `text` (which is not well-formed), of the first lone surrogate. */
function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

/** `key` with NULs and lone surrogates written as `\uXXXX`. */
function escaped(key: string): string {
  let out = "";
  for (const char of key) {
    // Iterating a string yields pairs whole: a lone surrogate comes alone.
    const unit = char.charCodeAt(0);
    const bad = char === "\u0000" || (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff);
    out += bad ? `\\u${unit.toString(16).toUpperCase().padStart(4, "0")}` : char;
  }
  return out;
}
