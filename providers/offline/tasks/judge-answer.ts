import {
  identifierTerms,
  parseJudgePrompt,
  questionTerms,
  share,
  topicTerms,
  wantsJson,
} from "./judge-prompt.ts";
import type { OfflineTask } from "./types.ts";

type Scores = { relevance: number; accuracy: number; completeness: number; precision: number };

/** 2 at or above `high`, 1 at or above `low`, else 0. */
const band = (value: number, high: number, low: number) => value >= high ? 2 : value >= low ? 1 : 0;
const percent = (value: number) => `${Math.round(100 * value)}%`;

/**
 * The offline answer judge, by term overlap:
 * - relevance: the share of the question's topic terms the answer uses;
 * - accuracy: the share of the answer's terms the documents contain (1
 *   when there are no documents to check against);
 * - completeness: the share of the question's terms the documents hold
 *   that the answer also gives;
 * - precision: whether the answer names the question's identifiers.
 */
export function gradeAnswer(
  question: string,
  answer: string,
  documents: readonly string[],
): { scores: Scores; reasoning: string } {
  const terms = questionTerms(question);
  const answerTerms = topicTerms(answer);
  const documentTerms = new Set(documents.flatMap((text) => [...topicTerms(text)]));
  const used = share(terms, answerTerms);
  const grounded = share([...answerTerms], documentTerms);
  const available = documents.length > 0 ? terms.filter((t) => documentTerms.has(t)) : terms;
  const complete = share(available, answerTerms);
  const names = [...identifierTerms(question)];
  const named = share(names, answerTerms);
  const relevance = band(used, 0.6, 0.25);
  const scores: Scores = {
    relevance,
    accuracy: documents.length === 0 ? 1 : answerTerms.size === 0 ? 0 : band(grounded, 0.8, 0.5),
    completeness: available.length === 0 ? relevance : band(complete, 0.8, 0.4),
    precision: names.length === 0 ? (relevance > 0 ? 2 : 0) : band(named, 1, 0.01),
  };
  const reasoning = [
    `The answer uses ${percent(used)} of the question's topic terms.`,
    documents.length === 0
      ? "No documents were given to check its claims against."
      : `${percent(grounded)} of its terms appear in the documents, and it gives ` +
        `${percent(complete)} of the question's terms the documents hold.`,
    names.length === 0
      ? "The question names no specific product or identifier."
      : `It names ${percent(named)} of the identifiers in the question.`,
  ].join(" ");
  return { scores, reasoning };
}

/** `judge-answer@1`: JSON with `reasoning` when asked for it, else reasoning then a JSON last line. */
export const judgeAnswerTask: OfflineTask = {
  reply(input) {
    const { question, documents, blocks } = parseJudgePrompt(input.user);
    const { scores, reasoning } = gradeAnswer(
      question,
      blocks.answer ?? "",
      documents.map((document) => `${document.title}\n${document.text}`),
    );
    return wantsJson(input)
      ? JSON.stringify({ reasoning, ...scores })
      : `${reasoning}\n${JSON.stringify(scores)}`;
  },
};
