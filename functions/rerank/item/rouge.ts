import { words } from "../../../shared/text/analyze.ts";

/** Length of the longest common subsequence of two token lists (two rows of the table). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const token of a) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      current[j] = token === b[j - 1]
        ? previous[j - 1]! + 1
        : Math.max(previous[j]!, current[j - 1]!);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * ROUGE-L F1 (Lin, 2004) over lowercased words: the longest common
 * subsequence's precision and recall, harmonically averaged. ITEM's optional
 * stop condition compares consecutive pseudo-answers with it (paper 002,
 * §6.2). Two empty texts are identical (1); one empty text shares nothing (0).
 *
 * @example
 * rougeL("The show debuted in 1976.", "Family Feud debuted in 1976."); // 0.6
 */
export function rougeL(candidate: string, reference: string): number {
  const a = words(candidate);
  const b = words(reference);
  if (a.length === 0 && b.length === 0) return 1;
  const common = lcsLength(a, b);
  if (common === 0) return 0;
  const precision = common / a.length;
  const recall = common / b.length;
  return (2 * precision * recall) / (precision + recall);
}
