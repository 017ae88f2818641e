/**
 * Notations that wrap a value, written back as the labelled line every
 * reader knows: math-tuned models box their answer (`\boxed{2}`), models
 * prompted in the Anthropic style tag it (`<score>2</score>`,
 * `<verdict>B</verdict>`, `<answer>…</answer>`), judge models bracket the
 * label or the value (`[RESULT] 4`, `Rating: [[5]]`). Bounded patterns only: no
 * span can grow past its limit, so reading stays linear in the reply.
 */

/** `\boxed{2}`, `$\boxed{0.8}$`, `$$\boxed{\text{Yes}}$$`: the reply's final answer. */
const BOXED = /\${0,2}\\boxed\s*\{((?:[^{}\n]|\{[^{}\n]{0,40}\}){1,80})\}\${0,2}/g;
/** `<name>content</name>` with no tag inside: content up to 400 characters. */
const TAGGED = /<([A-Za-z][\w-]{0,30})>([^<]{0,400})<\/\1>/g;
/** HTML emphasis a model may write inline: its text stays where it is. */
const INLINE_TAG = /<\/?(?:b|i|em|strong|u|code|mark|span|sup|sub)>/gi;
/** A tag left over once its content is read (`<answers>`, `</queries>`). */
const STRAY_TAG = /<\/?[A-Za-z][\w-]{0,30}\s*\/?>/g;
/** Content short enough to be one value: `2`, `0.55`, `B`, `not relevant`, `yes`. */
const VALUE_LIKE = /^[^\n.!?]{1,24}$/;

/** A label in brackets before a value (Prometheus's `[RESULT] 4`): `RESULT: 4`. */
const BRACKETED_LABEL = /\[([A-Za-z][A-Za-z ]{1,20})\][ \t]*(?=[-+]?\d)/g;
/** A labelled value in double brackets (MT-Bench's `Rating: [[5]]`): the value alone. */
const DOUBLE_BRACKETED_VALUE = /([:=][ \t]*)\[\[[ \t]*(\d{1,4}(?:[.,]\d{1,4})?)[ \t]*\]\]/g;

/** LaTeX text wrappers inside a box: `\text{Yes}` is `Yes`. */
function unLatex(content: string): string {
  return content.replace(/\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}/g, "$1").trim();
}

/**
 * `\boxed{x}` as a `Final answer: x` line, and `<name>x</name>` as a
 * `name: x` line when x is one short value, as `- x` when the same tag holds
 * several items (`<query>…</query>` ×3), else as its text on its own lines;
 * tags left over go. Think blocks are set aside before this (see `reasoning.ts`).
 *
 * @example
 * canonicalNotation("<reason>On topic.</reason>\n<score>2</score>"); // "\nOn topic.\n\n\nscore: 2\n"
 */
export function canonicalNotation(text: string): string {
  const bracketed = text.replace(BRACKETED_LABEL, "\n$1: ")
    .replace(DOUBLE_BRACKETED_VALUE, "$1$2");
  if (!bracketed.includes("\\boxed") && !bracketed.includes("<")) return bracketed;
  const inline = bracketed.replace(INLINE_TAG, "");
  const repeated = new Map<string, number>();
  for (const match of inline.matchAll(TAGGED)) {
    const name = match[1]!.toLowerCase();
    repeated.set(name, (repeated.get(name) ?? 0) + 1);
  }
  return inline
    .replace(BOXED, (_, content: string) => `\nFinal answer: ${unLatex(content)}\n`)
    .replace(TAGGED, (_, name: string, content: string) => {
      const inner = content.trim();
      if (VALUE_LIKE.test(inner) && !inner.includes("\n")) {
        return (repeated.get(name.toLowerCase()) ?? 0) > 1 && /\s/.test(inner)
          ? `\n- ${inner}\n`
          : `\n${name.replace(/[_-]+/g, " ")}: ${inner}\n`;
      }
      return (repeated.get(name.toLowerCase()) ?? 0) > 1 && !inner.includes("\n")
        ? `\n- ${inner}\n`
        : `\n${inner}\n`;
    })
    .replace(STRAY_TAG, "");
}
