import { analyze } from "../../../shared/text/analyze.ts";
import { extractiveAnswer } from "./answer.ts";
import { questionTerms, spelling, wantsJson } from "./judge-prompt.ts";
import { parseItemPrompt } from "./item-prompt.ts";
import { NO_PSEUDO_ANSWER } from "./item-utility.ts";
import { splitSentences } from "./text.ts";
import type { OfflineTask } from "./types.ts";

/** How many of the passages' own terms an implicit answer names beyond the question's. */
const IMPLICIT_TERMS = 5;

/** `item-answer@1`: the extractive answer without its citations, or a plain "no answer". */
export function explicitPseudoAnswer(user: string): string {
  const { question, passages } = parseItemPrompt(user);
  const answer = extractiveAnswer(
    question,
    passages.map((passage) => ({ index: passage.number, title: "", text: passage.text })),
  );
  return answer ? answer.replace(/\s*\[\d+\]/g, "") : NO_PSEUDO_ANSWER;
}

/**
 * `item-answer-implicit@1`: what an answer needs: the question's topic words,
 * then the terms the passages use most often in sentences that share one of
 * them, each in its first spelling.
 */
export function implicitPseudoAnswer(user: string): string {
  const { question, passages } = parseItemPrompt(user);
  const topic = questionTerms(question);
  const counts = new Map<string, number>();
  const text = passages.map((passage) => passage.text).join("\n\n");
  for (const sentence of splitSentences(text)) {
    const terms = analyze(sentence);
    if (!terms.some((term) => topic.includes(term))) continue;
    for (const term of new Set(terms)) {
      if (!topic.includes(term) && !/^\d+$/.test(term)) {
        counts.set(term, (counts.get(term) ?? 0) + 1);
      }
    }
  }
  const related = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, IMPLICIT_TERMS).map(([term]) => spelling(text)(term));
  const asked = topic.map(spelling(question)).join(", ");
  return `Necessary information: what ${asked} ${
    related.length ? `involves, in terms of ${related.join(", ")}` : "is"
  }.`;
}

function answerTask(write: (user: string) => string): OfflineTask {
  return {
    reply(input) {
      const answer = write(input.user);
      return wantsJson(input) ? JSON.stringify({ answer }) : answer;
    },
  };
}

export const itemAnswerTask: OfflineTask = answerTask(explicitPseudoAnswer);
export const itemAnswerImplicitTask: OfflineTask = answerTask(implicitPseudoAnswer);
