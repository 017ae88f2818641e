import { parseJudgePrompt, questionTerms, share, topicTerms, wantsJson } from "./judge-prompt.ts";
import type { OfflineTask } from "./types.ts";

/** Merits closer than this are a tie. */
const TIE_MARGIN = 0.1;

type Merit = { coverage: number; grounding: number; merit: number };

/**
 * How well one answer serves the question: the share of the question's
 * topic terms it covers (of those the documents support, when there are
 * documents), and the share of its own terms found in the documents.
 * Scored for each answer on its own, so the order shown cannot matter.
 */
export function answerMerit(question: string, answer: string, documents: readonly string[]): Merit {
  const terms = questionTerms(question);
  const answerTerms = topicTerms(answer);
  const documentTerms = new Set(documents.flatMap((text) => [...topicTerms(text)]));
  const supported = terms.filter((term) => documentTerms.has(term));
  const target = documents.length > 0 && supported.length > 0 ? supported : terms;
  const coverage = share(target, answerTerms);
  if (documents.length === 0) return { coverage, grounding: 1, merit: coverage };
  const grounding = share([...answerTerms], documentTerms);
  return { coverage, grounding, merit: 0.7 * coverage + 0.3 * grounding };
}

const percent = (value: number) => `${Math.round(100 * value)}%`;

/**
 * The offline pairwise judge: the answer with the clearly higher merit
 * wins, a tie when they are within 0.1. Symmetric: swapping the answers
 * swaps the letter, so it has no position bias.
 */
export function judgePair(
  question: string,
  answers: { a: string; b: string },
  documents: readonly string[],
): { verdict: "A" | "B" | "C"; reasoning: string } {
  const a = answerMerit(question, answers.a, documents);
  const b = answerMerit(question, answers.b, documents);
  const describe = (name: string, merit: Merit) =>
    `Assistant ${name} covers ${percent(merit.coverage)} of the question's topic terms` +
    (documents.length > 0
      ? ` and ${percent(merit.grounding)} of its terms are in the documents.`
      : ".");
  const verdict = Math.abs(a.merit - b.merit) < TIE_MARGIN ? "C" : a.merit > b.merit ? "A" : "B";
  const conclusion = verdict === "C"
    ? "The two answers are about as good."
    : `Assistant ${verdict}'s answer is better.`;
  return { verdict, reasoning: `${describe("A", a)} ${describe("B", b)} ${conclusion}` };
}

/** `judge-pairwise@1`: `{"reasoning", "verdict"}` when asked for JSON, else reasoning then `[[X]]`. */
export const judgePairwiseTask: OfflineTask = {
  reply(input) {
    const { question, documents, blocks } = parseJudgePrompt(input.user);
    const { verdict, reasoning } = judgePair(
      question,
      { a: blocks.answer_a ?? "", b: blocks.answer_b ?? "" },
      documents.map((document) => `${document.title}\n${document.text}`),
    );
    return wantsJson(input)
      ? JSON.stringify({ reasoning, verdict })
      : `${reasoning}\n\n[[${verdict}]]`;
  },
};
