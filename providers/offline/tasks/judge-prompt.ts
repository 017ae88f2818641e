import { analyze, words } from "../../../shared/text/analyze.ts";
import { type NumberedDocument, parseNumberedPrompt } from "./numbered.ts";
import { contentTerms, identifiers } from "./text.ts";

/**
 * Reads the judge prompts back out (see `functions/judge/ask.ts`):
 * `Document N:` blocks each ending in an optional `Relevance note:` line,
 * `Question: ...`, then tagged blocks (`<answer>`, `<answer_a>`,
 * `<answer_b>`, `<reference>`). The renderer breaks these tags inside
 * documents and answers, so the last block of each name is the real one,
 * and documents are read only before the first of them.
 */
export type JudgePrompt = {
  question: string;
  documents: NumberedDocument[];
  blocks: Partial<Record<"answer" | "answer_a" | "answer_b" | "reference", string>>;
};

const BLOCK = /<(answer_a|answer_b|answer|reference)>\n?([\s\S]*?)\n?<\/\1>/g;
const NOTE_LINE = /^Relevance note:.*$/gm;

export function parseJudgePrompt(user: string): JudgePrompt {
  const found = new Map<string, { start: number; text: string }>();
  for (const match of user.matchAll(BLOCK)) {
    found.set(match[1]!, { start: match.index, text: (match[2] ?? "").trim() });
  }
  const cut = Math.min(user.length, ...[...found.values()].map((block) => block.start));
  const { question, documents } = parseNumberedPrompt(user.slice(0, cut));
  return {
    question,
    documents: documents.map((document) => ({
      ...document,
      text: document.text.replace(NOTE_LINE, "").trim(),
    })),
    blocks: Object.fromEntries([...found].map(([name, block]) => [name, block.text])),
  };
}

/** The topic terms of a question (all its terms when it has only question words). */
export function questionTerms(question: string): string[] {
  const terms = contentTerms(question);
  return terms.length > 0 ? terms : [...new Set(analyze(question))];
}

/** The terms of the identifiers in a question ("GLM-130B" → "glm", "130b"). */
export function identifierTerms(question: string): Set<string> {
  return new Set(identifiers(question).flatMap((name) => analyze(name)));
}

/** A term's first spelling in the text ("saturat" → "saturation"), for readable reasons. */
export function spelling(text: string): (term: string) => string {
  const seen = new Map<string, string>();
  for (const word of words(text)) {
    const [term] = analyze(word);
    if (term && !seen.has(term)) seen.set(term, word);
  }
  return (term) => seen.get(term) ?? term;
}

/** Terms a text is about: analyzed, without bare citation numbers like the 1 of `[1]`. */
export function topicTerms(text: string): Set<string> {
  return new Set(analyze(text.replace(/\[\d+\]/g, " ")));
}

/** The share of `terms` in `found`, each weighing `weight(term)`; 0 for no terms. */
export function share(
  terms: readonly string[],
  found: ReadonlySet<string>,
  weight: (term: string) => number = () => 1,
): number {
  const total = terms.reduce((sum, term) => sum + weight(term), 0);
  if (total === 0) return 0;
  return terms.filter((term) => found.has(term)).reduce((sum, term) => sum + weight(term), 0) /
    total;
}

/** Formats asked for: the request's response_format, or the prompt's JSON instruction. */
export function wantsJson(input: { json: boolean; system: string }): boolean {
  return input.json || input.system.includes("Reply with a JSON object");
}
