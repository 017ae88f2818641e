import { renderTemplate } from "../../../shared/llm/prompt.ts";
import {
  dimensionsOf,
  type TotDimension,
  type TotLevelKind,
} from "../../../shared/rerank/tot/dimensions.ts";
import { totAgentPrompt } from "../../../prompts/tot-agent.ts";
import { totQualityPrompt } from "../../../prompts/tot-quality.ts";
import { totSimilarityPrompt } from "../../../prompts/tot-similarity.ts";
import { totThresholdPrompt } from "../../../prompts/tot-threshold.ts";
import type { Candidate } from "./candidates.ts";

/** A rendered prompt, ready for `completeText` / `completeObject`. */
export type RenderedPrompt = {
  prompt: { id: string; version: number };
  system: string;
  user: string;
  /** The output format the system prompt holds, for a correction turn. */
  format: string;
  /** The model to ask, when not the step's default (ToT's per-dimension models). */
  model?: string | undefined;
};

// Past this, a candidate shown to the agent is cut: it chooses dimensions, it does not score.
const AGENT_CANDIDATE_CHARS = 1_000;

/** Breaks anything that looks like the tags these prompts use, so text cannot close its block. */
export function neutralizeTotTags(text: string): string {
  return text.replace(/<(\/?)\s*(passage|query|candidate)\b/gi, "<$1 $2");
}

function definition(name: TotDimension): string {
  const quality = totQualityPrompt.definitions as Record<string, string>;
  const similarity = totSimilarityPrompt.definitions as Record<string, string>;
  return quality[name] ?? similarity[name] ?? "";
}

/** "two", "three": how the agent's prompt says how many dimensions to choose. */
const COUNT_WORDS = ["none", "one", "two", "three", "four", "five"];

/**
 * The agent's prompt: the level's five dimensions, how many to choose
 * (`count`, 1-5), and every candidate (cut when long).
 */
export function renderAgent(
  kind: TotLevelKind,
  query: string,
  candidates: readonly Candidate[],
  structured: boolean,
  count = 2,
): RenderedPrompt {
  const slots = totAgentPrompt.slots.slice(0, count).map((slot) => `<${slot}>`);
  const counted = { count: COUNT_WORDS[count] ?? String(count) };
  const format = structured
    ? renderTemplate(totAgentPrompt.formatJson, {
      ...counted,
      slots_json: slots.map((slot) => `"${slot}"`).join(", "),
    })
    : renderTemplate(totAgentPrompt.formatText, { slots: slots.join(", ") });
  const system = renderTemplate(totAgentPrompt.system, {
    ...counted,
    stage: totAgentPrompt.stages[kind],
    dimensions: dimensionsOf(kind).map((name) => `- ${name}: ${definition(name)}`).join("\n"),
    format,
  });
  const shown = candidates.map((candidate, position) => {
    const text = candidate.text.length > AGENT_CANDIDATE_CHARS
      ? `${candidate.text.slice(0, AGENT_CANDIDATE_CHARS)}…`
      : candidate.text;
    return `<candidate index="${position + 1}">\n${neutralizeTotTags(text)}\n</candidate>`;
  });
  const user = renderTemplate(totAgentPrompt.user, {
    query: neutralizeTotTags(query),
    candidates: shown.join("\n"),
  });
  return { prompt: totAgentPrompt, system, user, format };
}

/** One candidate on one dimension: the quality prompt (text alone) or the similarity prompt. */
export function renderScore(
  kind: TotLevelKind,
  dimension: TotDimension,
  query: string,
  text: string,
  structured: boolean,
): RenderedPrompt {
  const template = kind === "quality" ? totQualityPrompt : totSimilarityPrompt;
  const values = {
    dimension,
    definition: definition(dimension),
    format: structured ? template.formatJson : template.formatText,
  };
  return {
    prompt: template,
    format: values.format,
    system: renderTemplate(template.system, values),
    user: renderTemplate(template.user, {
      dimension,
      ...(kind === "similarity" ? { query: neutralizeTotTags(query) } : {}),
      text: neutralizeTotTags(text),
    }),
  };
}

/** The evaluator's prompt: the level's scores, one line per candidate, and no texts. */
export function renderThreshold(
  kind: TotLevelKind,
  dimensions: readonly TotDimension[],
  rows: readonly Readonly<Record<string, number>>[],
  structured: boolean,
): RenderedPrompt {
  const example = dimensions.map((name, i) => [name, i === 0 ? 0.6 : 0.45] as const);
  const format = renderTemplate(
    structured ? totThresholdPrompt.formatJson : totThresholdPrompt.formatText,
    {
      example_json: JSON.stringify(Object.fromEntries(example)),
      example_lines: example.map(([name, value]) => `${name}: ${value}`).join("\n"),
    },
  );
  const system = renderTemplate(totThresholdPrompt.system, {
    stage: totThresholdPrompt.stages[kind],
    dimensions: dimensions.join(", "),
    format,
  });
  const lines = rows.map((row, position) =>
    `candidate ${position + 1}: ${
      dimensions.map((name) => `${name} ${Number((row[name] ?? 0).toFixed(3))}`).join(", ")
    }`
  );
  const user = renderTemplate(totThresholdPrompt.user, {
    count: rows.length,
    scores: lines.join("\n"),
  });
  return { prompt: totThresholdPrompt, system, user, format };
}
