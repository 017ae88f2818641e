import { rerankPrompt } from "../../prompts/rerank.ts";
import { rerankRelevancePrompt } from "../../prompts/rerank-relevance.ts";
import { renderTemplate } from "../../shared/llm/prompt.ts";
import type { RerankDocument } from "../../shared/rerank/types.ts";
import { CRITERION_MAX, RELEVANCE_MAX, type Rubric } from "../../shared/rerank/rubric.ts";

/** A line in a document that could pass for our own structure is indented out of the way. */
const STRUCTURE_LINE = /^(\s*)(document\s+\d+\s*:|question\s*:|answer\s*:|doc\s*:\s*\d+)/gim;

/**
 * Documents as the papers number them, `Document N:` from 1, with the
 * metadata that recency and authoritativeness depend on. A line inside a
 * document that looks like a header, a question or an output line is
 * prefixed with `> `, so neither a model nor the offline model's parser can
 * mistake document text for the prompt's structure.
 *
 * @example
 * renderNumberedDocuments([{ text: "BM25 ...", metadata: { title: "Okapi" } }]);
 * // "Document 1: [title: Okapi]\nBM25 ..."
 */
export function renderNumberedDocuments(documents: readonly RerankDocument[]): string {
  return documents.map((document, position) => {
    const metadata = document.metadata ?? {};
    const fields = (["title", "source", "url", "published", "authors"] as const)
      .map((key) => {
        const value = metadata[key];
        const flat = Array.isArray(value) ? value.join(", ") : value;
        return typeof flat === "string" && flat.trim()
          ? `${key}: ${flat.replace(/[\[\]\n]/g, " ").trim()}`
          : undefined;
      })
      .filter(Boolean);
    const header = `Document ${position + 1}:${fields.length ? ` [${fields.join("; ")}]` : ""}`;
    return `${header}\n${document.text.replace(STRUCTURE_LINE, "$1> $2")}`;
  }).join("\n\n");
}

function label(name: string): string {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The formula as the reranker reads it: `Relevance + 0.5 × Depth + ...`. */
export function formulaText(rubric: Rubric): string {
  return ["Relevance", ...rubric.criteria.map((c) => `${c.weight} × ${label(c.name)}`)].join(" + ");
}

/**
 * The system prompt for a rubric in one output mode: this is the "rendered
 * reranking prompt" `/v1/rubrics` returns for people to audit.
 */
export function renderRerankSystem(
  rubric: Rubric,
  options: { structured: boolean; explain: boolean },
): string {
  const p = rerankPrompt;
  const criteria = rubric.criteria.length === 0 ? p.noCriteria : [
    p.criteriaHeading,
    ...rubric.criteria.map((c) =>
      `- ${
        label(c.name)
      } [key: ${c.name}] (0-${CRITERION_MAX}, weight ${c.weight}): ${c.definition} ` +
      `A 5: ${c.high} A 0: ${c.low}`
    ),
  ].join("\n");
  const format = renderRerankFormat(rubric, options);
  return renderTemplate(p.system, {
    relevance_definition: rubric.relevance.definition,
    criteria,
    formula: formulaText(rubric),
    threshold: rubric.relevance_threshold,
    tie_break: rubric.tie_break === "retrieval_rank"
      ? "the document retrieved earlier"
      : `the higher ${label(rubric.tie_break)}, then the document retrieved earlier`,
    format,
  });
}

/** The rerank prompt's output format for `rubric`, alone: also the correction turn's format. */
export function renderRerankFormat(
  rubric: Rubric,
  options: { structured: boolean; explain: boolean },
): string {
  const p = rerankPrompt;
  const keys = `{${rubric.criteria.map((c) => `"${c.name}": <0-${CRITERION_MAX}>`).join(", ")}}`;
  const pairs = rubric.criteria.map((c) => `, ${label(c.name)}: <0-${CRITERION_MAX}>`).join("");
  const exampleScores = rubric.criteria.map((_, i) => [3, 4, 2, 5, 1][i % 5]!);
  const exampleFinal = 7 +
    rubric.criteria.reduce((sum, c, i) => sum + c.weight * exampleScores[i]!, 0);
  return options.structured
    ? renderTemplate(p.formatJson, {
      criteria_keys: keys,
      reason_field: options.explain ? p.reasonField : "",
    })
    : renderTemplate(p.formatText, {
      threshold: rubric.relevance_threshold,
      criteria_pairs: pairs,
      reason_pair: options.explain ? p.reasonPair : "",
      example_final: Math.round(exampleFinal * 100) / 100,
      example_pairs: rubric.criteria.map((c, i) => `, ${label(c.name)}: ${exampleScores[i]}`).join(
        "",
      ),
      example_reason: options.explain ? p.exampleReason : "",
    });
}

/** The relevance-only baseline's output format, alone: also the correction turn's format. */
export function renderRelevanceFormat(options: { structured: boolean; explain: boolean }): string {
  const p = rerankRelevancePrompt;
  return options.structured
    ? renderTemplate(p.formatJson, { reason_field: options.explain ? p.reasonField : "" })
    : renderTemplate(p.formatText, {
      reason_pair: options.explain ? p.reasonPair : "",
      example_reason: options.explain ? p.exampleReason : "",
    });
}

/** The relevance-only baseline's system prompt. */
export function renderRelevanceSystem(options: { structured: boolean; explain: boolean }): string {
  return renderTemplate(rerankRelevancePrompt.system, { format: renderRelevanceFormat(options) });
}

/** The user message of every rerank prompt: numbered documents, then the question. */
export function renderRerankUser(query: string, documents: readonly RerankDocument[]): string {
  return renderTemplate(rerankPrompt.user, {
    documents: renderNumberedDocuments(documents),
    query: query.replace(/\n+/g, " "),
  });
}

export { label as criterionLabel, RELEVANCE_MAX };
