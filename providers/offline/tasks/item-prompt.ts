/**
 * Reads ITEM's prompts back out (see `functions/rerank/item/render.ts`):
 * passages `[1] ...`, `[2] ...`, then `Question: ...` and, for the judgment
 * steps, `Reference answer: ...`. The renderer prefixes passage lines that
 * look like this structure with `> `, so only line-start matches are
 * structure; passages are read only before the last `Question:` line.
 */

export type ItemPassage = { number: number; text: string };

export type ItemPrompt = {
  question: string;
  /** The pseudo-answer the judgment steps are given; undefined for the answer steps. */
  answer: string | undefined;
  passages: ItemPassage[];
};

const QUESTION_LINE = /^Question:[ \t]*(.*)$/gm;
const ANSWER_LINE = /^Reference answer:[ \t]*(.*)$/m;
const PASSAGE_START = /^\[(\d+)\] /gm;

/**
 * @example
 * parseItemPrompt("[1] BM25 ranks.\n\n[2] Cats.\n\nQuestion: What is BM25?\nReference answer: A ranking.");
 * // { question: "What is BM25?", answer: "A ranking.", passages: [{ number: 1, text: "BM25 ranks." }, ...] }
 */
export function parseItemPrompt(user: string): ItemPrompt {
  let question: { start: number; text: string; end: number } | undefined;
  for (const match of user.matchAll(QUESTION_LINE)) {
    question = {
      start: match.index,
      text: (match[1] ?? "").trim(),
      end: match.index + match[0].length,
    };
  }
  const body = user.slice(0, question?.start ?? user.length);
  const starts = [...body.matchAll(PASSAGE_START)];
  const passages = starts.map((match, i) => ({
    number: Number(match[1]),
    text: body.slice(match.index + match[0].length, starts[i + 1]?.index ?? body.length).trim(),
  }));
  const answer = question ? ANSWER_LINE.exec(user.slice(question.end))?.[1]?.trim() : undefined;
  return { question: question?.text ?? user.trim(), answer, passages };
}
