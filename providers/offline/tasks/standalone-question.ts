import { analyze, stem, STOP_WORDS } from "../../../shared/text/analyze.ts";
import { parseQuestion } from "./tags.ts";
import { contentTerms, QUESTION_WORDS } from "./text.ts";
import type { OfflineTask } from "./types.ts";

const TURN = /<turn role="(user|assistant)">([\s\S]*?)<\/turn>/g;
const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;

/**
 * What an earlier question is about: the subject of "What is X?", else its
 * topic words as written (case kept, so names survive).
 *
 * @example
 * topicOf("What is reciprocal rank fusion?"); // "reciprocal rank fusion"
 */
export function topicOf(question: string): string | undefined {
  const plain = question.trim().replace(/[?.!\s]+$/, "");
  const subject = /^(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+)$/i.exec(plain);
  if (subject?.[1] && analyze(subject[1]).length > 0) return subject[1];
  const kept = (plain.match(WORD) ?? []).filter((word) => {
    const lower = word.toLowerCase();
    return !STOP_WORDS.has(lower) && !QUESTION_WORDS.has(stem(lower));
  });
  return kept.length > 0 ? kept.join(" ") : undefined;
}

/**
 * The follow-up made to stand alone: pronouns ("it", "its", "they"...) become
 * the topic of the latest earlier user question that has one; a question with
 * no pronoun that does not name that topic gets it appended. A question that
 * already names the topic, or a chat with no earlier question, is kept as is.
 *
 * @example
 * standalone("How is its score computed?", ["What is reciprocal rank fusion?"]);
 * // "How is reciprocal rank fusion's score computed?"
 */
export function standalone(question: string, earlierQuestions: readonly string[]): string {
  const topic = [...earlierQuestions].reverse().map(topicOf).find(Boolean);
  if (!topic) return question;
  const topicTerms = new Set(analyze(topic));
  if (contentTerms(question).some((term) => topicTerms.has(term))) return question;
  const resolved = question
    .replace(/\b(?:its|their)\b/gi, `${topic}'s`)
    .replace(/\b(?:it|they|them)\b/gi, topic);
  if (resolved !== question) return resolved;
  const plain = question.trim().replace(/[?.!]+$/, "");
  return `${plain}, regarding ${topic}?`;
}

/** `standalone-question@1`: the conversation's user turns give the follow-up its topic. */
export const standaloneQuestionTask: OfflineTask = {
  reply({ user }) {
    const earlier = [...user.matchAll(TURN)]
      .filter((match) => match[1] === "user")
      .map((match) => (match[2] ?? "").trim());
    return standalone(parseQuestion(user), earlier);
  },
};
