import { analyze, STOP_WORDS } from "../../../shared/text/analyze.ts";
import { wantsJson } from "./judge-prompt.ts";
import { parseDocuments } from "./tags.ts";
import { splitSentences } from "./text.ts";
import type { OfflineTask } from "./types.ts";

const DEFAULT_COUNT = 3;
const MAX_WORDS = 9;
const PRONOUN = /^(?:it|this|that|these|those|they|there|he|she|we|its|their|such)\b/i;
const COPULA = /^(.{2,80}?)\s+(is|are|was|were)\s+(.+)$/i;
const ARTICLE = /^(The|A|An)\s/;

const clip = (text: string) => text.split(/\s+/).slice(0, MAX_WORDS).join(" ");
const plain = (text: string) =>
  text.replace(/\[\d+\]/g, "").replace(/[\s.!?;:,]+$/, "").replace(/\s+/g, " ").trim();

/** "combines" → "combine", "matches" → "match": the base form after "does". */
function baseForm(verb: string): string {
  return /(?:ches|shes|sses|xes|zes)$/.test(verb) ? verb.slice(0, -2) : verb.slice(0, -1);
}

/**
 * One question a sentence answers, or none: "X is Y." asks "What is X?";
 * "X combines Y." asks "How does X combine Y?"; otherwise its key words
 * make a "What is known about ...?" question. Sentences about "it" or
 * "this" need context a standalone question lacks, so they are skipped.
 *
 * @example
 * questionFor("BM25 is a ranking function."); // "What is BM25?"
 */
export function questionFor(sentence: string): string | undefined {
  const text = plain(sentence).replace(ARTICLE, (article) => article.toLowerCase());
  if (PRONOUN.test(text) || text.split(" ").length < 4) return undefined;
  const copula = COPULA.exec(text);
  if (copula && copula[1]!.split(" ").length <= 6) {
    return `What ${copula[2]!.toLowerCase()} ${copula[1]}?`;
  }
  const tokens = text.split(" ");
  const verbAt = tokens.findIndex((word, i) =>
    i >= 1 && i <= 5 && /^[a-z]{3,}s$/.test(word) && !/(?:ss|us|is)$/.test(word) &&
    !STOP_WORDS.has(word)
  );
  if (verbAt !== -1) {
    const subject = tokens.slice(0, verbAt).join(" ");
    const rest = clip(tokens.slice(verbAt + 1).join(" "));
    return `How does ${subject} ${baseForm(tokens[verbAt]!)}${rest ? ` ${rest}` : ""}?`;
  }
  const keys = text.split(" ").filter((word) => !STOP_WORDS.has(word.toLowerCase())).slice(0, 4);
  return keys.length >= 2 ? `What is known about ${keys.join(" ")}?` : undefined;
}

/**
 * Up to `count` questions from a passage: its most informative sentences
 * (the most distinct terms), each turned into a question, no two alike.
 */
export function syntheticQuestions(passage: string, count: number): string[] {
  const ranked = splitSentences(passage)
    .map((sentence, order) => ({ sentence, order, terms: new Set(analyze(sentence)).size }))
    .sort((a, b) => b.terms - a.terms || a.order - b.order);
  const questions: string[] = [];
  for (const { sentence } of ranked) {
    const question = questionFor(sentence);
    if (question && !questions.some((q) => q.toLowerCase() === question.toLowerCase())) {
      questions.push(question);
    }
    if (questions.length === count) break;
  }
  return questions;
}

/** `synthetic-queries@1`: `{"questions": [...]}` when asked for JSON, else numbered lines. */
export const syntheticQueriesTask: OfflineTask = {
  reply(input) {
    const asked = Number(/Write (\d+) questions/.exec(input.system)?.[1] ?? DEFAULT_COUNT);
    const passage = parseDocuments(input.user)[0]?.text ?? "";
    const questions = syntheticQuestions(passage, Math.min(Math.max(asked, 1), 20));
    return wantsJson(input)
      ? JSON.stringify({ questions })
      : questions.map((question, i) => `${i + 1}. ${question}`).join("\n");
  },
};
