import { z } from "zod";
import { extractJsonObject } from "../llm/json.ts";
import { isRefusal, normalizeReply } from "../llm/reply-text.ts";
import { readRubricList } from "./read-rubric-list.ts";
import { type RubricDraft, rubricDraftSchema } from "./rubric.ts";

/** A weight as models write it: `0.3`, `"0.3"`, `"30%"`, `"2/10"`. */
function weightOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return Number.NaN;
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent) return Number(percent[1]) / 100;
  const fraction = /^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(text);
  if (fraction && Number(fraction[2]) > 0) return Number(fraction[1]) / Number(fraction[2]);
  return text === "" ? Number.NaN : Number(text);
}

const finiteOr = (value: number, fallback: number) => Number.isFinite(value) ? value : fallback;

const record = z.record(z.string(), z.unknown());

/** The object's fields by lower-case, underscored key. */
function fields(value: unknown): Map<string, unknown> {
  const parsed = record.safeParse(value);
  if (!parsed.success) return new Map();
  return new Map(
    Object.entries(parsed.data).map((
      [key, entry],
    ) => [key.toLowerCase().replace(/[\s-]+/g, "_"), entry]),
  );
}

const first = (map: Map<string, unknown>, ...keys: string[]) =>
  keys.map((key) => map.get(key)).find((value) => value !== undefined);
const stringOr = (value: unknown, fallback: string) =>
  typeof value === "string" && value.trim() ? value : fallback;

/** The object a reply holds: strict JSON, else with trailing commas and `//` comments removed. */
function objectIn(text: string): unknown {
  const strict = extractJsonObject(text);
  // A broken outer object leaves an inner one (a criterion) parsed: that is not the rubric.
  const keys = fields(strict);
  if (["criteria", "rubric", "relevance"].some((key) => keys.has(key))) return strict;
  const relaxed = text.replace(/^\s*\/\/.*$/gm, "").replace(/,\s*([}\]])/g, "$1")
    .replace(/[“”]/g, '"');
  return extractJsonObject(relaxed);
}

/**
 * A rubric draft from a model's reply, read as a person would: JSON bare or
 * in a fence, wrapped (`{"rubric": {...}}`) or not, with trailing commas,
 * keys in any case (`Criteria`, `Name`, `Description`), weights as strings or
 * percentages, `relevance` as a string, missing `high`/`low`/`tie_break`
 * given neutral defaults; else a markdown list of criteria (see
 * `readRubricList`). Normalised first; a refusal is none. `undefined` when
 * no criteria list (or, for a relevance-only rubric, no relevance
 * definition) can be found.
 *
 * @example
 * readRubricDraft('```json\n{"criteria": [{"name": "Rigor", "description": "…", "weight": "40%"}], "relevance": "…"}\n```');
 */
export function readRubricDraft(reply: string): RubricDraft | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  return readRubricJson(text) ?? readRubricList(text);
}

function readRubricJson(text: string): RubricDraft | undefined {
  let top = fields(objectIn(text));
  const wrapped = first(top, "rubric");
  if (wrapped !== undefined && first(top, "criteria") === undefined) top = fields(wrapped);
  const list = first(top, "criteria", "secondary_criteria");
  const relevanceField = first(top, "relevance", "relevance_definition");
  const relevanceDefinition = typeof relevanceField === "string"
    ? relevanceField
    : stringOr(first(fields(relevanceField), "definition", "description"), "");
  if (!Array.isArray(list) && !relevanceDefinition) return undefined;
  const criteria = (Array.isArray(list) ? list : []).map((entry) => {
    const criterion = fields(entry);
    return {
      name: stringOr(first(criterion, "name", "criterion", "title"), ""),
      definition: stringOr(first(criterion, "definition", "description"), ""),
      high: stringOr(first(criterion, "high", "high_score", "high_example"), "Fully meets it."),
      low: stringOr(first(criterion, "low", "low_score", "low_example"), "Does not meet it."),
      weight: finiteOr(weightOf(first(criterion, "weight")), 0.5),
    };
  }).filter((criterion) => criterion.name.trim() && criterion.definition.trim());
  const threshold = first(top, "relevance_threshold", "threshold");
  const draft = rubricDraftSchema.safeParse({
    criteria,
    relevance: {
      definition: relevanceDefinition || "How directly the document addresses the question.",
    },
    relevance_threshold: finiteOr(
      typeof threshold === "number" ? threshold : weightOf(threshold ?? "3"),
      3,
    ),
    tie_break: stringOr(first(top, "tie_break", "tiebreak", "tie_breaker"), "retrieval_rank"),
  });
  return draft.success ? draft.data : undefined;
}
