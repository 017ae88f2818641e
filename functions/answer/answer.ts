import { answerPrompt } from "../../prompts/answer.ts";
import { type ChatRequest, streamText, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { UpstreamError } from "../../shared/errors.ts";
import { type PromptDocument, renderDocuments, renderTemplate } from "../../shared/llm/prompt.ts";
import { citationLabels } from "../../shared/documents/citation-label.ts";

export type AnswerDocument = PromptDocument & {
  id?: string | undefined;
  doc_id?: string | undefined;
  section?: string | undefined;
  page?: number | undefined;
  page_end?: number | undefined;
  chunk_index?: number | undefined;
};

export type Citation = {
  /** The `[n]` number in the answer: the document's position from 1. */
  index: number;
  id?: string;
  doc_id?: string;
  title?: string;
  url?: string;
  section?: string;
  page?: number;
  page_end?: number;
  chunk_index?: number;
  /** Title, section and page as a person reads them: `RoBERTa, §4.1, p. 6`. */
  label: string;
};

export type AnswerResult = {
  answer: string;
  citations: Citation[];
  /** False when the model said the documents do not answer the question. */
  answered: boolean;
  usage: TokenUsage;
};

export function buildAnswerRequest(
  query: string,
  documents: readonly AnswerDocument[],
  signal?: AbortSignal,
): ChatRequest {
  return {
    prompt: answerPrompt,
    system: renderTemplate(answerPrompt.system, { no_answer: answerPrompt.noAnswer }),
    user: renderTemplate(answerPrompt.user, { documents: renderDocuments(documents), query }),
    signal,
  };
}

/**
 * The documents an answer cites, in order of first citation. Reads `[2]`,
 * `[1][3]` and `[1, 3]`; numbers outside 1..N are not documents and are
 * ignored rather than wrapped around.
 */
export function citationsIn(answer: string, documents: readonly AnswerDocument[]): Citation[] {
  const cited: number[] = [];
  for (const group of answer.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const number of group[1]!.split(/[,;]/)) {
      const index = Number(number.trim());
      if (index >= 1 && index <= documents.length && !cited.includes(index)) cited.push(index);
    }
  }
  const labels = citationLabels(cited.map((index) => {
    const document = documents[index - 1]!;
    return { ...document, id: document.id ?? `document ${index}` };
  }));
  return cited.map((index, position) => {
    const document = documents[index - 1]!;
    return {
      index,
      ...(document.id ? { id: document.id } : {}),
      ...(document.doc_id ? { doc_id: document.doc_id } : {}),
      ...(document.title ? { title: document.title } : {}),
      ...(document.url ? { url: document.url } : {}),
      ...(document.section ? { section: document.section } : {}),
      ...(document.page !== undefined ? { page: document.page } : {}),
      ...(document.page_end !== undefined ? { page_end: document.page_end } : {}),
      ...(document.chunk_index !== undefined ? { chunk_index: document.chunk_index } : {}),
      label: labels[position]!,
    };
  });
}

function isNoAnswer(answer: string): boolean {
  const normalize = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, " ").trim();
  return normalize(answer).includes(normalize(answerPrompt.noAnswer));
}

/** One answer call: its deltas as they come, then its text and usage. */
async function* answerAttempt(
  deps: { llm: LlmContext },
  input: { query: string; documents: readonly AnswerDocument[] },
  signal?: AbortSignal,
): AsyncGenerator<{ type: "delta"; text: string }, { answer: string; usage: TokenUsage }> {
  let answer = "";
  let usage: TokenUsage = { tokens_in: 0, tokens_out: 0 };
  // Whitespace is held back until real text follows: an empty reply streams nothing.
  let held = "";
  for await (
    const part of streamText(deps.llm, buildAnswerRequest(input.query, input.documents, signal))
  ) {
    if (part.type === "usage") {
      usage = part.usage;
      continue;
    }
    answer += part.text;
    if (answer.trim() === "") {
      held += part.text;
      continue;
    }
    yield { type: "delta", text: held + part.text };
    held = "";
  }
  return { answer: answer.trim(), usage };
}

/** A reply with no text is not an answer: the step failed (and may succeed if tried again). */
function emptyReply(): UpstreamError {
  return new UpstreamError("LLM", {
    isRetryable: true,
    message: "The LLM provider returned an empty answer (tried twice)",
  });
}

/**
 * Streams a grounded answer: text deltas as the model writes them, then the
 * whole answer with its citations as the generator's return value. With no
 * documents there is nothing to ground on, so no model is called. An empty or
 * whitespace-only reply is a failed step, never an answer: it is tried once
 * more (a provider's hiccup), then thrown as a 502 `UpstreamError`.
 */
export async function* streamAnswer(
  deps: { llm: LlmContext },
  input: { query: string; documents: readonly AnswerDocument[] },
  signal?: AbortSignal,
): AsyncGenerator<{ type: "delta"; text: string }, AnswerResult> {
  if (input.documents.length === 0) {
    yield { type: "delta", text: answerPrompt.noAnswer };
    return {
      answer: answerPrompt.noAnswer,
      citations: [],
      answered: false,
      usage: { tokens_in: 0, tokens_out: 0 },
    };
  }
  let { answer, usage } = yield* answerAttempt(deps, input, signal);
  if (answer === "") {
    const again = yield* answerAttempt(deps, input, signal);
    answer = again.answer;
    usage = {
      tokens_in: usage.tokens_in + again.usage.tokens_in,
      tokens_out: usage.tokens_out + again.usage.tokens_out,
    };
    if (answer === "") throw emptyReply();
  }
  const answered = !isNoAnswer(answer);
  return {
    answer,
    citations: answered ? citationsIn(answer, input.documents) : [],
    answered,
    usage,
  };
}

/** The whole answer at once. */
export async function generateAnswer(
  deps: { llm: LlmContext },
  input: { query: string; documents: readonly AnswerDocument[] },
  signal?: AbortSignal,
): Promise<AnswerResult> {
  const stream = streamAnswer(deps, input, signal);
  while (true) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}
