import { z } from "zod";

/** One secondary criterion, scored 0-5, weighted into the final score. */
export type Criterion = {
  /** snake_case key used in scores and model output, e.g. `authoritativeness`. */
  name: string;
  definition: string;
  /** What a 5 looks like. */
  high: string;
  /** What a 0 looks like. */
  low: string;
  weight: number;
};

/**
 * What a reranker is told to value: relevance (0-10) plus up to 8 secondary
 * criteria (0-5 each). `final = relevance + Σ weight · criterion`, computed
 * in code; documents below `relevance_threshold` are discarded; ties go to
 * the higher `tie_break` criterion, then to the earlier retrieval rank.
 */
export type Rubric = {
  criteria: Criterion[];
  relevance: { definition: string };
  relevance_threshold: number;
  /** A criterion name, or `retrieval_rank` for none. */
  tie_break: string;
};

export const MAX_CRITERIA = 8;
export const MAX_WEIGHT = 2;
export const RELEVANCE_MAX = 10;
export const CRITERION_MAX = 5;

/** Criterion names as keys: lowercase words joined by `_`. */
export function criterionKey(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "")
    .slice(0, 40);
}

const text = (max: number) => z.string().trim().min(1).max(max);

/** What a model may send for a rubric: loose on purpose, repaired by `repairRubric`. */
export const rubricDraftSchema = z.object({
  criteria: z.array(z.object({
    name: text(80),
    definition: text(1000),
    high: text(500),
    low: text(500),
    weight: z.number(),
  })),
  relevance: z.object({ definition: text(1000) }),
  relevance_threshold: z.number(),
  tie_break: z.string(),
});
export type RubricDraft = z.infer<typeof rubricDraftSchema>;

/** The strict shape of a rubric a caller passes in: wrong values are a 400, not repaired. */
export const rubricSchema = z.strictObject({
  criteria: z.array(z.strictObject({
    name: text(80),
    definition: text(1000),
    high: text(500).default("Fully meets the criterion."),
    low: text(500).default("Does not meet the criterion at all."),
    weight: z.number().min(0).max(MAX_WEIGHT, { error: `must be in [0, ${MAX_WEIGHT}]` }).default(
      0.5,
    ),
  })).max(MAX_CRITERIA, { error: `must hold at most ${MAX_CRITERIA} criteria` })
    .superRefine((criteria, ctx) => {
      const seen = new Set<string>();
      criteria.forEach((criterion, position) => {
        const key = criterionKey(criterion.name);
        if (!key || key === "relevance" || seen.has(key)) {
          ctx.addIssue({
            code: "custom",
            path: [position, "name"],
            message: "must be a unique criterion name other than relevance",
          });
        }
        seen.add(key);
      });
    }),
  relevance: z.strictObject({ definition: text(1000) }),
  relevance_threshold: z.number().min(0).max(RELEVANCE_MAX).default(3),
  tie_break: z.string().default("retrieval_rank"),
}).transform((rubric): Rubric => ({
  ...rubric,
  criteria: rubric.criteria.map((criterion) => ({
    ...criterion,
    name: criterionKey(criterion.name),
  })),
  // A tie-break that names no criterion falls back to the retrieval rank.
  tie_break: rubric.criteria.some((c) => criterionKey(c.name) === criterionKey(rubric.tie_break))
    ? criterionKey(rubric.tie_break)
    : "retrieval_rank",
}));

/**
 * Makes a model-written rubric safe to use: names become unique keys, weights
 * are clamped to [0, 2], at most 8 criteria are kept, the threshold is
 * clamped to [0, 10], and a tie-break that names no criterion falls back to
 * the retrieval rank. Returns the problems it fixed; `undefined` when the
 * draft has no usable criterion and `allowEmpty` is false.
 */
export function repairRubric(
  draft: RubricDraft,
  options: { allowEmpty: boolean },
): { rubric: Rubric; repairs: string[] } | undefined {
  const repairs: string[] = [];
  const seen = new Set<string>();
  const criteria: Criterion[] = [];
  for (const candidate of draft.criteria) {
    const name = criterionKey(candidate.name);
    if (!name || seen.has(name) || name === "relevance") {
      repairs.push(`dropped criterion "${candidate.name}" (empty, duplicate or "relevance")`);
      continue;
    }
    if (criteria.length === MAX_CRITERIA) {
      repairs.push(`dropped criteria beyond ${MAX_CRITERIA}`);
      break;
    }
    let weight = Number.isFinite(candidate.weight) ? candidate.weight : 0.5;
    if (weight < 0 || weight > MAX_WEIGHT) {
      repairs.push(
        `clamped the weight of ${name} from ${candidate.weight} into [0, ${MAX_WEIGHT}]`,
      );
      weight = Math.min(MAX_WEIGHT, Math.max(0, weight));
    }
    seen.add(name);
    criteria.push({ ...candidate, name, weight });
  }
  if (criteria.length === 0 && !options.allowEmpty) return undefined;
  let threshold = Number.isFinite(draft.relevance_threshold) ? draft.relevance_threshold : 3;
  if (threshold < 0 || threshold > RELEVANCE_MAX) {
    repairs.push(
      `clamped relevance_threshold ${draft.relevance_threshold} into [0, ${RELEVANCE_MAX}]`,
    );
    threshold = Math.min(RELEVANCE_MAX, Math.max(0, threshold));
  }
  let tieBreak = criterionKey(draft.tie_break);
  if (!seen.has(tieBreak)) {
    if (draft.tie_break && tieBreak !== "retrieval_rank") {
      repairs.push(`tie_break "${draft.tie_break}" names no criterion: using the retrieval rank`);
    }
    tieBreak = "retrieval_rank";
  }
  return {
    rubric: {
      criteria,
      relevance: draft.relevance,
      relevance_threshold: threshold,
      tie_break: tieBreak,
    },
    repairs,
  };
}

/** The highest final score a rubric allows: scales scores into [0, 1] for `/v2/rerank`. */
export function maxFinalScore(rubric: Rubric): number {
  return RELEVANCE_MAX + rubric.criteria.reduce((sum, c) => sum + c.weight * CRITERION_MAX, 0);
}

/** What the model is asked for: plain types only, checked and repaired after parsing. */
export const rubricLlmSchema = z.object({
  criteria: z.array(z.object({
    name: z.string(),
    definition: z.string(),
    high: z.string(),
    low: z.string(),
    weight: z.number(),
  })),
  relevance: z.object({ definition: z.string() }),
  relevance_threshold: z.number(),
  tie_break: z.string(),
});
