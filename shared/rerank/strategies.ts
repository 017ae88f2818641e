import { z } from "zod";
import { itemVariantOptions } from "./item-options.ts";
import { totVariantOptions } from "./tot/options.ts";
import type { RerankStrategy } from "./types.ts";

/**
 * The rerank strategies, declared once: what each takes and how it keeps
 * what it ranks. `/v1/rerank`, `/v1/query`'s rerank step, the chat presets,
 * the evaluation's variants, the console and `deno task ask` read this
 * list; the function that runs a strategy is its entry in
 * `functions/rerank/runners.ts`. docs/layout.md shows how to add one.
 */
export type RerankStrategySpec = {
  name: string;
  /** One line for help texts and the console. */
  summary: string;
  /** Whether it asks a model (`none` keeps retrieval's order). */
  usesModel: boolean;
  /**
   * Where its criteria come from: `fixed` (REBEL's one-turn criteria, or
   * relevance alone), `generated` per query by a first model call (a request
   * may give its own `rubric` instead, and `weights: "rubric"` takes the
   * generated weights), or `none` (it scores without criteria).
   */
  rubric: "fixed" | "generated" | "none";
  /** Why it refuses `weights` (after "strategy <name> "); absent: it takes them. */
  refusesWeights?: string;
  /** The request field holding its own options (`item`, `tot`); other strategies refuse it. */
  optionsField?: string;
  /** It keeps every candidate that passes its own screen unless a cut is asked for (ToT-RAG). */
  keepsAll?: boolean;
  /** Its scores are in [0, 1] already (Cohere's scale); otherwise the rubric's maximum scales them. */
  unitScores?: boolean;
  /**
   * Reads an evaluation variant's options (`item:A_r:implicit`) into its
   * request options and an optional cut; a string is why an option is not
   * one. Absent: the strategy takes no options in a variant name.
   */
  variantOptions?: (
    options: readonly string[],
  ) => { options?: Record<string, unknown>; cut?: number } | string;
  /** The options' grammar, for the evaluation's error message (`item:A_s|AR_s|…`). */
  variantGrammar?: string;
};

const registry = new Map<string, RerankStrategySpec>();

/** sift's own strategies, in the order help texts list them. */
const BUILTIN: (RerankStrategySpec & { name: RerankStrategy })[] = [
  {
    name: "one-turn",
    summary: "REBEL one-turn: relevance and five fixed criteria in one call",
    usesModel: true,
    rubric: "fixed",
  },
  {
    name: "two-turn",
    summary: "REBEL two-turn: a rubric written for the query, then scores on it",
    usesModel: true,
    rubric: "generated",
  },
  {
    name: "relevance",
    summary: "relevance alone, one call (the LLMRerank-style baseline)",
    usesModel: true,
    rubric: "fixed",
  },
  {
    name: "two-turn-relevance",
    summary: "a definition of relevance written for the query, then relevance alone",
    usesModel: true,
    rubric: "generated",
  },
  {
    name: "none",
    summary: "retrieval's order, no model call",
    usesModel: false,
    rubric: "none",
  },
  {
    name: "item",
    summary: "ITEM: pseudo-answers and utility judgments, iterated",
    usesModel: true,
    rubric: "none",
    refusesWeights: "judges utility",
    optionsField: "item",
    unitScores: true,
    variantOptions: itemVariantOptions,
    variantGrammar: "item:A_s|AR_s|A_r:explicit|implicit:listwise|pointwise:top5:m1-m5",
  },
  {
    name: "tot",
    summary: "ToT-RAG: two levels of evaluation dimensions, each with thresholds",
    usesModel: true,
    rubric: "none",
    refusesWeights: "scores on the dimensions its agent picks",
    optionsField: "tot",
    keepsAll: true,
    unitScores: true,
    variantOptions: totVariantOptions,
    variantGrammar: "tot:passage|sentence:cut<n>",
  },
];
for (const spec of BUILTIN) registry.set(spec.name, spec);

/**
 * Adds a strategy to the list everything reads. Built-ins are added by
 * `builtin-strategies.ts`; a test or an embedding app may add its own, with
 * a runner under the same name (`addRerankRunner`).
 */
export function defineRerankStrategy(spec: RerankStrategySpec): RerankStrategySpec {
  if (!/^[a-z][a-z0-9-]*$/.test(spec.name)) {
    throw new Error(`a rerank strategy's name is lower-case words and dashes: ${spec.name}`);
  }
  registry.set(spec.name, spec);
  return spec;
}

/** The strategies by name, in the order they were defined. */
export function rerankStrategyNames(): string[] {
  return [...registry.keys()];
}

export function rerankStrategy(name: string): RerankStrategySpec | undefined {
  return registry.get(name);
}

/** The spec of a name the schemas have already checked. */
export function strategySpec(name: string): RerankStrategySpec {
  const spec = registry.get(name);
  if (!spec) throw new Error(`no rerank strategy ${name}`);
  return spec;
}

/**
 * A strategy name in a request: checked against the list when the request
 * is read, so a strategy added after start is taken like the built-ins.
 */
export function rerankStrategySchema() {
  return z.string({ error: () => `must be one of ${rerankStrategyNames().join(", ")}` })
    .refine((name) => registry.has(name), {
      error: () => `must be one of ${rerankStrategyNames().join(", ")}`,
    })
    .transform((name) => name as RerankStrategy)
    .meta({ enum: rerankStrategyNames() });
}

/** What a rerank request or step says besides its strategy, as the fit checks read it. */
type StrategyFields = {
  strategy: string;
  weights?: unknown;
  rubric?: unknown;
  [field: string]: unknown;
};

/** One thing a request asks that its strategy does not take: the field and why. */
export type StrategyMisfit = { path: string; message: string };

/**
 * What a request asks of its strategy that the strategy does not take:
 * another strategy's options, weights where it refuses them, a rubric or
 * `weights: "rubric"` where it generates none. Every schema that names a
 * strategy runs it, so the messages are the same everywhere.
 */
export function strategyMisfits(
  fields: StrategyFields,
  options: { rubricField?: boolean } = {},
): StrategyMisfit[] {
  const spec = registry.get(fields.strategy);
  if (!spec) return [];
  const misfits: StrategyMisfit[] = [];
  for (const other of registry.values()) {
    const field = other.optionsField;
    if (field && field !== spec.optionsField && fields[field] !== undefined) {
      misfits.push({ path: field, message: `only strategy ${other.name} takes these options` });
    }
  }
  if (spec.refusesWeights && fields.weights !== undefined) {
    misfits.push({
      path: "weights",
      message: `strategy ${spec.name} ${spec.refusesWeights} and takes no weights`,
    });
  } else if (fields.weights === "rubric" && spec.rubric !== "generated") {
    misfits.push({
      path: "weights",
      message:
        '"rubric" takes a generated rubric\'s weights: only the two-turn strategies have one',
    });
  }
  if (options.rubricField && fields.rubric !== undefined && spec.rubric !== "generated") {
    misfits.push({ path: "rubric", message: "only the two-turn strategies take a rubric" });
  }
  return misfits;
}

/** `strategyMisfits` as a zod check: each misfit an issue at its field. */
export function checkStrategyFit(options: { rubricField?: boolean } = {}) {
  return (fields: StrategyFields, context: z.RefinementCtx) => {
    for (const misfit of strategyMisfits(fields, options)) {
      context.addIssue({ code: "custom", path: [misfit.path], message: misfit.message });
    }
  };
}

/** The rerank step's `top_n` when none is asked: 3 (REBEL's keep-3), or every survivor. */
export function defaultTopN(strategy: string, all: number): number {
  return registry.get(strategy)?.keepsAll ? all : 3;
}
