import { wantsJson } from "./judge-prompt.ts";
import { parseItemPrompt } from "./item-prompt.ts";
import { isUseful, rankByRelevance, rankByUtility } from "./item-utility.ts";
import type { OfflineTask } from "./types.ts";

/*
 * ITEM's ranking and judgment steps, offline: lexical overlap with the
 * question and the pseudo-answer (see `item-utility.ts`), written as JSON
 * when asked or in RankGPT's `[3] > [1] > [2]` form.
 */

function chain(numbers: readonly number[]): string {
  return numbers.map((number) => `[${number}]`).join(" > ");
}

function rankingTask(rank: typeof rankByUtility): OfflineTask {
  return {
    reply(input) {
      const { question, answer, passages } = parseItemPrompt(input.user);
      const ranking = rank(question, answer, passages);
      return wantsJson(input) ? JSON.stringify({ ranking }) : chain(ranking);
    },
  };
}

/** `item-relevance-ranking@1`: every passage by topical relevance. */
export const itemRelevanceRankingTask: OfflineTask = rankingTask(rankByRelevance);

/** `item-utility-ranking@1`: every passage by utility. */
export const itemUtilityRankingTask: OfflineTask = rankingTask(rankByUtility);

/** `item-utility-selection@1`: the useful passages by utility, or `None`. */
export const itemUtilitySelectionTask: OfflineTask = {
  reply(input) {
    const { question, answer, passages } = parseItemPrompt(input.user);
    const texts = new Map(passages.map((passage) => [passage.number, passage.text]));
    const useful = rankByUtility(question, answer, passages)
      .filter((number) => isUseful(question, answer, texts.get(number) ?? ""));
    if (wantsJson(input)) return JSON.stringify({ useful });
    return useful.length ? chain(useful) : "None";
  },
};

/** `item-utility-pointwise@1`: the same rule on the one passage shown. */
export const itemUtilityPointwiseTask: OfflineTask = {
  reply(input) {
    const { question, answer, passages } = parseItemPrompt(input.user);
    const useful = isUseful(question, answer, passages[0]?.text ?? "");
    if (wantsJson(input)) return JSON.stringify({ useful });
    return `Useful: ${useful ? "yes" : "no"}`;
  },
};
