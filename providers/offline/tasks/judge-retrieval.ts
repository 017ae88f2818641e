import { analyze } from "../../../shared/text/analyze.ts";
import {
  identifierTerms,
  parseJudgePrompt,
  questionTerms,
  share,
  spelling,
  wantsJson,
} from "./judge-prompt.ts";
import type { NumberedDocument } from "./numbered.ts";
import type { OfflineTask } from "./types.ts";

const VERY_RELEVANT = 0.6;
const SOMEWHAT_RELEVANT = 0.25;

/**
 * The offline retrieval judge: the weighted share of the question's topic
 * terms the document (title and text) contains. The judge sees one document
 * per call, so there is no collection to take IDF from; identifiers
 * ("GLM-130B", "BM25") stand in for rare terms and weigh double. A document
 * missing an identifier can be on topic (1) but never answers (2).
 *
 * @example
 * gradeRelevance("What is BM25?", { text: "BM25 ranks documents.", ... }).score; // 2
 */
export function gradeRelevance(
  question: string,
  document: Pick<NumberedDocument, "title" | "text">,
): { score: 0 | 1 | 2; reason: string } {
  const terms = questionTerms(question);
  const names = identifierTerms(question);
  const found = new Set(analyze(`${document.title}\n${document.text}`));
  const coverage = share(terms, found, (term) => (names.has(term) ? 2 : 1));
  const missingName = [...names].some((term) => !found.has(term));
  const score = coverage >= VERY_RELEVANT && !missingName
    ? 2
    : coverage >= SOMEWHAT_RELEVANT
    ? 1
    : 0;
  const spell = spelling(question);
  const matched = terms.filter((term) => found.has(term)).map(spell);
  const missing = terms.filter((term) => !found.has(term)).map(spell);
  // One sentence, no line breaks: the reason must not look like a second score line.
  const reason = `The document contains ${matched.length} of the question's ${terms.length} ` +
    `topic terms${matched.length ? ` (${matched.join(", ")})` : ""}` +
    `${missing.length ? ` and lacks ${missing.join(", ")}` : ""}.`;
  return { score, reason };
}

/** `judge-retrieval@1`: `{"reason", "score"}` when asked for JSON, else a reason then `Score: N`. */
export const judgeRetrievalTask: OfflineTask = {
  reply(input) {
    const { question, documents } = parseJudgePrompt(input.user);
    const document = documents[0] ?? { title: "", text: "" };
    const { score, reason } = gradeRelevance(question, document);
    return wantsJson(input) ? JSON.stringify({ reason, score }) : `${reason}\nScore: ${score}`;
  },
};
