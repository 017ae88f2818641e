import { answerPrompt } from "../../../prompts/answer.ts";
import { analyze } from "../../../shared/text/analyze.ts";
import { parseDocuments, parseQuestion, type TaggedDocument } from "./tags.ts";
import { contentTerms, identifiers, inverseDocumentFrequency, splitSentences } from "./text.ts";
import type { OfflineTask } from "./types.ts";

/** Below this share of the question's IDF weight found in the documents, they do not answer it. */
const MIN_COVERAGE = 0.5;
const MAX_SENTENCES = 3;

type Candidate = {
  order: number;
  position: number;
  index: number;
  sentence: string;
  terms: Set<string>;
};

/** Cites before the closing punctuation, so a sentence splitter keeps the citation with its sentence. */
function cite(sentence: string, index: number): string {
  // Bracketed numbers from the source (its own references) would read as our citations.
  const clean = sentence.replace(/\s*\[\d+\]/g, "");
  const match = /([.!?]+["')\]]*)$/.exec(clean);
  return match ? `${clean.slice(0, match.index)} [${index}]${match[1]}` : `${clean} [${index}].`;
}

/**
 * An extractive grounded answer: the 1-3 sentences that together cover the
 * most IDF weight of the question's topic terms, in document order, each
 * cited. `undefined` when the documents do not cover the question.
 */
export function extractiveAnswer(
  question: string,
  documents: readonly TaggedDocument[],
): string | undefined {
  const terms = contentTerms(question);
  if (terms.length === 0 || documents.length === 0) return undefined;
  const texts = documents.map((document) => `${document.title}\n${document.text}`);
  const idf = inverseDocumentFrequency(texts);
  const found = new Set(texts.flatMap((text) => analyze(text)));
  const weight = (list: readonly string[]) => list.reduce((sum, term) => sum + idf(term), 0);
  if (weight(terms.filter((term) => found.has(term))) < MIN_COVERAGE * weight(terms)) {
    return undefined;
  }
  // An identifier the documents never mention means they are about something else.
  if (identifiers(question).some((name) => analyze(name).some((term) => !found.has(term)))) {
    return undefined;
  }

  const candidates: Candidate[] = documents.flatMap((document, order) =>
    splitSentences(document.text).map((sentence, position) => ({
      order,
      position,
      index: document.index,
      sentence,
      terms: new Set(analyze(sentence)),
    }))
  );
  const covered = new Set<string>();
  const chosen: Candidate[] = [];
  while (chosen.length < MAX_SENTENCES) {
    let best: { candidate: Candidate; gain: number } | undefined;
    for (const candidate of candidates) {
      if (chosen.includes(candidate)) continue;
      const gain = weight(terms.filter((term) => candidate.terms.has(term) && !covered.has(term)));
      // On a tie the shorter sentence (denser in the question's terms) wins, then the earlier one.
      if (
        gain > (best?.gain ?? 0) ||
        (best && gain === best.gain && candidate.terms.size < best.candidate.terms.size)
      ) best = { candidate, gain };
    }
    if (!best) break;
    chosen.push(best.candidate);
    for (const term of terms) if (best.candidate.terms.has(term)) covered.add(term);
  }
  if (chosen.length === 0) return undefined;
  return chosen
    .sort((a, b) => a.order - b.order || a.position - b.position)
    .map((candidate) => cite(candidate.sentence, candidate.index))
    .join(" ");
}

/** `answer@1`: extractive, cited, or exactly `answerPrompt.noAnswer`. */
export const answerTask: OfflineTask = {
  reply({ user }) {
    return extractiveAnswer(parseQuestion(user), parseDocuments(user)) ?? answerPrompt.noAnswer;
  },
};
