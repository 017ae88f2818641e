import { renderTemplate } from "../../../shared/llm/prompt.ts";
import type { RerankDocument } from "../../../shared/rerank/types.ts";

/**
 * Listwise steps put every passage in one prompt; RankGPT cuts passages to a
 * few hundred words for the same reason. Past this a passage is cut.
 */
export const PASSAGE_CHARS = 4_000;

/** A line inside a passage that could pass for the prompt's own structure. */
const STRUCTURE_LINE =
  /^(\s*)(\[\s*\d+\s*\]|question\s*:|reference answer\s*:|necessary information\s*:|useful\s*:)/gim;

/** What every ITEM step's prompt is filled from. */
export type StepPrompt = {
  system: string;
  user: string;
  formatJson: string;
  formatText: string;
};

function passageText(document: RerankDocument): string {
  const title = document.metadata?.title;
  const text = document.text.length > PASSAGE_CHARS
    ? `${document.text.slice(0, PASSAGE_CHARS)} …`
    : document.text;
  const header = typeof title === "string" && title.trim()
    ? `${title.replace(/\s+/g, " ").trim()}: `
    : "";
  return `${header}${text}`.replace(STRUCTURE_LINE, "$1> $2");
}

/**
 * Passages as RankGPT numbers them, `[1]`…`[N]` in the order given, each with
 * its title. A line inside a passage that looks like an identifier, the
 * question or the reference answer is prefixed with `> `, so neither a model
 * nor the offline model's parser can take passage text for structure.
 *
 * @example
 * renderPassages([{ text: "BM25 ranks.", metadata: { title: "Okapi" } }]); // "[1] Okapi: BM25 ranks."
 */
export function renderPassages(documents: readonly RerankDocument[]): string {
  return documents.map((document, position) => `[${position + 1}] ${passageText(document)}`)
    .join("\n\n");
}

/** One line: a query or a pseudo-answer never starts a line of its own in the prompt. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The system and user messages of one ITEM step in the output mode asked for. */
export function renderStep(
  prompt: StepPrompt,
  input: {
    documents: readonly RerankDocument[];
    query: string;
    answer?: string | undefined;
    structured: boolean;
  },
): { system: string; user: string } {
  const count = input.documents.length;
  const format = input.structured ? prompt.formatJson : prompt.formatText;
  const values: Record<string, string | number> = {
    passages: renderPassages(input.documents),
    query: oneLine(input.query),
  };
  if (input.answer !== undefined) values.answer = oneLine(input.answer) || "(none yet)";
  return {
    system: renderTemplate(prompt.system.replaceAll("{{format}}", format), { count }),
    user: renderTemplate(prompt.user, values),
  };
}
