import { type RubricDraft, rubricDraftSchema } from "./rubric.ts";

const ITEM = /^\s*(?:\d+\s*[.)]|[-*•+])\s+(.+)$/;
const WEIGHT =
  /\(?\s*weight\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(%)?\s*\)?|\(\s*(\d*\.\d+|\d+(?:\.\d+)?\s*%)\s*\)/i;
const RELEVANCE_LINE = /^\W*relevance(?:\s+definition)?\s*(?:[:—–]|\s-\s)\s*(.+)$/i;
const THRESHOLD_LINE = /\bthreshold\s*[:=]?\s*(\d+(?:\.\d+)?)/i;

function weightOf(match: RegExpExecArray | null): number {
  if (!match) return 0.5;
  if (match[1] !== undefined) return Number(match[1]) / (match[2] ? 100 : 1);
  const raw = match[3]!.replace(/\s+/g, "");
  return raw.endsWith("%") ? Number(raw.slice(0, -1)) / 100 : Number(raw);
}

/** One list item as a criterion: `**Name** (weight 0.6): definition`, `Name — weight: 40% — definition`. */
function criterionOf(item: string) {
  const bold = /\*\*([^*]+)\*\*/.exec(item);
  const plain = item.replace(/[*_`]/g, "");
  const weight = weightOf(WEIGHT.exec(plain));
  const withoutWeight = plain.replace(WEIGHT, " ").replace(/\s+/g, " ").trim();
  const name = (bold?.[1] ?? withoutWeight.split(/\s*(?:[:—–(]|\s-\s)/)[0] ?? "")
    .replace(/[:\s]+$/, "").trim();
  const definition = withoutWeight.slice(withoutWeight.indexOf(name) + name.length)
    .replace(/^[\s:—–\-(),]+/, "").replace(/^[\s:—–\-]+/, "").trim();
  // A name stands apart from its definition (bold, or a colon, dash or parenthesis after it).
  const apart = bold !== null || /^[^:—–(]+?(?:[:—–(]|\s-\s)/.test(withoutWeight) ||
    WEIGHT.test(plain);
  return { name: apart ? name : "", definition: definition || name, weight };
}

/**
 * A rubric written as a markdown list instead of JSON: one criterion per
 * item (`1. **Methodological Rigor** (weight 0.6): Is the evidence…`,
 * `- Source Credibility — weight: 40% — whether…`), a `Relevance: …` line
 * for the relevance definition, an optional `threshold: 3`. Items with no
 * name, or a name of more than six words (a sentence, not a criterion),
 * are left out; no item left is none.
 *
 * @example
 * readRubricList("- **Rigor** (weight 0.6): Controlled studies.\n- **Use** (weight 0.4): Steps to follow.");
 */
export function readRubricList(text: string): RubricDraft | undefined {
  const lines = text.split(/\r?\n/);
  const criteria = lines.flatMap((line) => {
    const item = ITEM.exec(line);
    if (!item || RELEVANCE_LINE.test(item[1]!.replace(/[*_`]/g, ""))) return [];
    const criterion = criterionOf(item[1]!);
    const words = criterion.name.split(/\s+/).length;
    return criterion.name && words <= 6 && Number.isFinite(criterion.weight) ? [criterion] : [];
  });
  if (criteria.length === 0) return undefined;
  const relevance = lines.map((line) => RELEVANCE_LINE.exec(line.replace(/[*_`]/g, "")))
    .find(Boolean)?.[1]?.trim();
  const threshold = lines.map((line) => THRESHOLD_LINE.exec(line)).find(Boolean)?.[1];
  const draft = rubricDraftSchema.safeParse({
    criteria: criteria.map((criterion) => ({
      ...criterion,
      high: "Fully meets it.",
      low: "Does not meet it.",
    })),
    relevance: { definition: relevance || "How directly the document addresses the question." },
    relevance_threshold: threshold !== undefined ? Number(threshold) : 3,
    tie_break: "retrieval_rank",
  });
  return draft.success ? draft.data : undefined;
}
