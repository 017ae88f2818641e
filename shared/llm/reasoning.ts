/**
 * A reasoning model's thinking, set aside before any reader looks at a
 * reply (docs/model-replies.md): a draft is never a verdict. Open models
 * served without a reasoning parser write `<think>…</think>` (or
 * `<thinking>`, `<reasoning>`) into the text, and chat templates that open
 * the tag themselves (Qwen3, DeepSeek-R1) leave only its closing tag;
 * OpenAI-compatible providers that split it out put it in the message's
 * `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter, Ollama).
 */

/** A reply's answer and the thinking set aside from it. */
export type SetAside = { answer: string; reasoning: string };

const OPEN = /<(?:think|thinking|reasoning)>/gi;
const CLOSE = /<\/(?:think|thinking|reasoning)>/gi;

/** The next match of a global `tag` at or after `from`, or undefined. */
function next(tag: RegExp, text: string, from: number): RegExpExecArray | undefined {
  tag.lastIndex = from;
  return tag.exec(text) ?? undefined;
}

/**
 * The reply without its thinking: every `<think>…</think>` block, an
 * opening stretch that ends in a closing tag with no opening one (the
 * template opened it), and an opening tag never closed (the thinking ran to
 * the end: there is no answer). Linear: each tag is looked for once from
 * where the last one ended.
 *
 * @example
 * setReasoningAside("<think>Score: 2? No.</think>\nScore: 1"); // { answer: "Score: 1", reasoning: "Score: 2? No." }
 */
export function setReasoningAside(text: string): SetAside {
  const answer: string[] = [];
  const reasoning: string[] = [];
  let at = 0;
  const firstClose = next(CLOSE, text, 0);
  const firstOpen = next(OPEN, text, 0);
  if (firstClose && (!firstOpen || firstClose.index < firstOpen.index)) {
    reasoning.push(text.slice(0, firstClose.index));
    at = firstClose.index + firstClose[0].length;
  }
  for (let open = next(OPEN, text, at); open; open = next(OPEN, text, at)) {
    answer.push(text.slice(at, open.index));
    const close = next(CLOSE, text, open.index + open[0].length);
    if (!close) {
      reasoning.push(text.slice(open.index + open[0].length));
      at = text.length;
      break;
    }
    reasoning.push(text.slice(open.index + open[0].length, close.index));
    at = close.index + close[0].length;
  }
  answer.push(text.slice(at));
  // A stray closing tag left in the answer is no text of it.
  const joined = answer.join("").replace(CLOSE, "");
  return { answer: joined.trim(), reasoning: reasoning.join("\n").trim() };
}

/** A chat message as OpenAI-compatible providers send it, reasoning fields included. */
export type ReplyMessage = {
  content?: string | null | undefined;
  reasoning_content?: unknown;
  reasoning?: unknown;
};

/**
 * A message's answer and reasoning: the provider's `reasoning_content` /
 * `reasoning` field and any thinking left in the content, set aside; the
 * answer is what readers read. An empty answer with reasoning means the
 * model only thought: the step is degraded and its correction asks for the
 * answer alone.
 *
 * @example
 * answerOf({ content: "Score: 1", reasoning_content: "Score: 2? No." }).answer; // "Score: 1"
 */
export function answerOf(message: ReplyMessage | undefined): SetAside {
  const inContent = setReasoningAside(message?.content ?? "");
  const separate = [message?.reasoning_content, message?.reasoning]
    .filter((field): field is string => typeof field === "string" && field.trim() !== "");
  return {
    answer: inContent.answer,
    reasoning: [...separate, inContent.reasoning].filter(Boolean).join("\n").trim(),
  };
}
