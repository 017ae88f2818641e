import {
  ITEM_UTILITY_K,
  type ItemIteration,
  type ItemOptions,
  type ItemStopReason,
} from "../../../shared/rerank/item-options.ts";
import { rougeL } from "./rouge.ts";
import { type ItemContext, judgeEach, pseudoAnswer, rankDocuments, selectUseful } from "./steps.ts";

export type ItemRun = {
  iterations: ItemIteration[];
  stop_reason: ItemStopReason;
  /** The result order: the utility set in the model's order, then the rest. */
  order: number[];
  /** The final utility set (a prefix of `order`). */
  utility: number[];
  warnings: string[];
};

/** What one iteration's judgment steps produced. */
type Judged = {
  /** U_t, or undefined when the judgment was unusable (U_{t-1} stands). */
  utility: number[] | undefined;
  /** AR_s: R_t; A_r and AR_r: the utility ranking. */
  ranking?: number[];
  /** AR_r: R_t, the relevance ranking the next iteration ranks again. */
  relevance?: number[];
  notes: string[];
};

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((index) => b.includes(index));
}

/** The ranking and judgment steps of iteration t, for the variant asked. */
async function judge(
  context: ItemContext,
  options: ItemOptions,
  state: { utility: number[]; ranking: number[]; relevance: number[]; retrieval: number[] },
  answer: string,
): Promise<Judged> {
  const k = Math.min(ITEM_UTILITY_K, state.retrieval.length);
  if (options.variant === "AR_r") {
    // R_t ranks R_{t-1} by relevance; the utility ranking ranks R_t as presented; U_t is its first k.
    const ranked = await rankDocuments(context, "relevance", state.relevance, answer);
    const relevance = ranked ?? state.relevance;
    const useful = await rankDocuments(context, "utility", relevance, answer);
    const notes = [
      ...(ranked ? [] : ["the relevance ranking was unusable; the previous ranking was kept"]),
      ...(useful
        ? []
        : ["the utility ranking was unusable; the previous ranking and set were kept"]),
    ];
    return useful
      ? { utility: useful.slice(0, k), ranking: useful, relevance, notes }
      : { utility: undefined, ranking: state.ranking, relevance, notes };
  }
  if (options.variant === "AR_s") {
    // R_t ranks R_{t-1} as presented; U_t is judged over R_t as presented.
    const ranked = await rankDocuments(context, "relevance", state.ranking, answer);
    const ranking = ranked ?? state.ranking;
    const utility = await selectUseful(context, ranking, answer);
    const notes = [
      ...(ranked ? [] : ["the relevance ranking was unusable; the previous ranking was kept"]),
      ...(utility ? [] : ["the utility judgment was unusable; the previous set was kept"]),
    ];
    return { utility, ranking, notes };
  }
  if (options.variant === "A_r") {
    const ranked = await rankDocuments(context, "utility", state.retrieval, answer);
    if (!ranked) {
      return {
        utility: undefined,
        ranking: state.ranking,
        notes: ["the utility ranking was unusable; the previous ranking and set were kept"],
      };
    }
    return { utility: ranked.slice(0, k), ranking: ranked, notes: [] };
  }
  if (options.judgment === "listwise") {
    const utility = await selectUseful(context, state.retrieval, answer);
    return {
      utility,
      notes: utility ? [] : ["the utility judgment was unusable; the previous set was kept"],
    };
  }
  const verdicts = await judgeEach(context, state.retrieval, answer);
  const unusable = state.retrieval.filter((_, i) => verdicts[i] === undefined);
  // A document whose verdict is unusable keeps its place in (or out of) U_{t-1}.
  const utility = state.retrieval.filter((index, i) =>
    verdicts[i] ?? state.utility.includes(index)
  );
  return {
    utility: unusable.length === state.retrieval.length ? undefined : utility,
    notes: unusable.length === 0 ? [] : [
      `the judgment of document${unusable.length > 1 ? "s" : ""} ${
        unusable.join(", ")
      } was unusable; kept as in the previous set`,
    ],
  };
}

/**
 * ITEM's loop (paper 002, §3.3). Iteration t writes a pseudo-answer from
 * U_{t-1} (U_0 = R_0 = D, every candidate, as the paper has it; or, with
 * `start: "top5"`, the retrieval list's first k), then runs the variant's
 * ranking and judgment steps. It
 * stops after `m` iterations, when a fully judged U_t equals U_{t-1}
 * (`unchanged`), or, with `answer_stop` p, when ROUGE-L F1 of a_t and a_{t-1}
 * reaches p (`answer_converged`). A step whose reply is unusable keeps its
 * previous state and marks the iteration degraded; a degraded judgment never
 * counts as unchanged.
 */
export async function runItem(context: ItemContext, options: ItemOptions): Promise<ItemRun> {
  const retrieval = context.documents.map((_, index) => index);
  const k = Math.min(ITEM_UTILITY_K, retrieval.length);
  let utility = options.start === "top5" ? retrieval.slice(0, k) : retrieval;
  let ranking = retrieval;
  let relevance = retrieval;
  let answer: string | undefined;
  const iterations: ItemIteration[] = [];
  const warnings: string[] = [];
  let stopReason: ItemStopReason = "max_iterations";
  for (let t = 1; t <= options.m; t++) {
    // An empty U_{t-1} leaves nothing to answer from: the top of the current ranking stands in.
    const evidence = utility.length > 0 ? utility : ranking.slice(0, k);
    const fresh = await pseudoAnswer(context, options.answer, evidence);
    const previousAnswer = answer;
    answer = fresh ?? answer ?? "";
    const judged = await judge(
      context,
      options,
      { utility, ranking, relevance, retrieval },
      answer,
    );
    const notes = [
      ...(fresh === undefined ? ["the pseudo-answer was unusable; the previous one was kept"] : []),
      ...judged.notes,
    ];
    const previous = utility;
    utility = judged.utility ?? utility;
    if (judged.ranking) ranking = judged.ranking;
    if (judged.relevance) relevance = judged.relevance;
    iterations.push({
      answer,
      ...(judged.ranking ? { ranking: [...judged.ranking] } : {}),
      utility: [...utility],
      ...(notes.length > 0 ? { degraded: true as const } : {}),
    });
    warnings.push(...notes.map((note) => `iteration ${t}: ${note}`));
    if (judged.notes.length === 0 && sameSet(utility, previous)) {
      stopReason = "unchanged";
      break;
    }
    if (
      options.answer_stop !== undefined && fresh !== undefined && previousAnswer !== undefined &&
      rougeL(fresh, previousAnswer) >= options.answer_stop
    ) {
      stopReason = "answer_converged";
      break;
    }
  }
  // AR_s and AR_r rank every passage: the rest follow that ranking; A_s and A_r keep retrieval's.
  const rest = (options.variant === "AR_s" || options.variant === "AR_r" ? ranking : retrieval)
    .filter((index) => !utility.includes(index));
  return { iterations, stop_reason: stopReason, order: [...utility, ...rest], utility, warnings };
}
