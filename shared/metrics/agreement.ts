/**
 * Agreement between two raters scoring the same items, e.g. a judge model and
 * people (paper 001 §7.1). The rank correlations match SciPy's
 * `stats.kendalltau` (tau-b) and `stats.spearmanr` statistics, including
 * SciPy's answer for a constant input: NaN, since a correlation with
 * something that never varies is undefined. Callers that speak JSON must turn
 * NaN into null themselves.
 */

/**
 * Kendall's tau-b: (concordant − discordant) / √((n0 − n1)(n0 − n2)), where n1
 * and n2 count the pairs tied in x and in y. O(n log n) (Knight's algorithm,
 * as SciPy), so it serves long score lists. NaN when x or y is constant.
 *
 * @example
 * kendallTauB([1, 2, 3], [1, 3, 2]); // ≈ 0.333
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, 2);
  const size = x.length;
  // Order by (x, y) and replace both by dense ranks (1-based), as SciPy does.
  const order = Array.from(x, (_, index) => index).sort((i, j) => x[i]! - x[j]! || y[i]! - y[j]!);
  const xRanks = denseRanks(order.map((index) => x[index]!));
  const yRanks = denseRankBy(order.map((index) => y[index]!));

  // Discordant pairs: earlier (smaller x) items with a larger y, counted with
  // a Fenwick tree. Items tied in x come sorted by y, so none of them count.
  const tree = new Float64Array(size + 1);
  let discordant = 0;
  for (let i = 0; i < size; i++) {
    const rank = yRanks[i]!;
    let atMost = 0;
    for (let node = rank; node > 0; node -= node & -node) atMost += tree[node]!;
    discordant += i - atMost;
    for (let node = rank; node <= size; node += node & -node) tree[node]!++;
  }

  let jointTies = 0;
  let run = 1;
  for (let i = 1; i <= size; i++) {
    if (i < size && xRanks[i] === xRanks[i - 1] && yRanks[i] === yRanks[i - 1]) {
      run++;
    } else {
      jointTies += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  const xTies = tiedPairs(xRanks);
  const yTies = tiedPairs(yRanks);
  const total = (size * (size - 1)) / 2;
  if (xTies === total || yTies === total) return NaN;
  const concordantMinusDiscordant = total - xTies - yTies + jointTies - 2 * discordant;
  const tau = concordantMinusDiscordant / Math.sqrt(total - xTies) / Math.sqrt(total - yTies);
  return Math.min(1, Math.max(-1, tau));
}

/**
 * Spearman's rho: the Pearson correlation of the two rank vectors, tied
 * values sharing their average rank. NaN when x or y is constant.
 *
 * @example
 * spearmanRho([1, 2, 3, 4], [1, 3, 2, 4]); // 0.8
 */
export function spearmanRho(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, 2);
  return pearson(averageRanks(x), averageRanks(y));
}

export type BlandAltman = { bias: number; lower: number; upper: number };

/**
 * Bland-Altman agreement: the bias is the mean of x − y, the limits of
 * agreement bias ± 1.96 s, with s the sample standard deviation (n − 1) of
 * x − y. Needs at least two pairs.
 *
 * @example
 * blandAltman([2, 3, 4], [1, 3, 3]); // { bias: 0.667, lower: −0.465, upper: 1.798 }
 */
export function blandAltman(x: readonly number[], y: readonly number[]): BlandAltman {
  checkPaired(x, y, 2);
  const differences = x.map((value, index) => value - y[index]!);
  const bias = differences.reduce((sum, value) => sum + value, 0) / differences.length;
  const squares = differences.reduce((sum, value) => sum + (value - bias) ** 2, 0);
  const spread = 1.96 * Math.sqrt(squares / (differences.length - 1));
  return { bias, lower: bias - spread, upper: bias + spread };
}

/** 1-based ranks, tied values sharing the mean of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = Array.from(values, (_, index) => index).sort((i, j) => values[i]! - values[j]!);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    const rank = (start + 1 + end) / 2; // mean of ranks start + 1 … end
    for (let i = start; i < end; i++) ranks[order[i]!] = rank;
    start = end;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const mean = (values: readonly number[]) =>
    values.reduce((sum, value) => sum + value, 0) / values.length;
  const xMean = mean(x);
  const yMean = mean(y);
  let cross = 0;
  let xSquares = 0;
  let ySquares = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i]! - xMean;
    const dy = y[i]! - yMean;
    cross += dx * dy;
    xSquares += dx * dx;
    ySquares += dy * dy;
  }
  if (xSquares === 0 || ySquares === 0) return NaN;
  return Math.min(1, Math.max(-1, cross / Math.sqrt(xSquares * ySquares)));
}

/** Dense ranks (1, 2, …) of already sorted values. */
function denseRanks(sorted: readonly number[]): Uint32Array {
  const ranks = new Uint32Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    ranks[i] = i === 0 ? 1 : ranks[i - 1]! + (sorted[i] === sorted[i - 1] ? 0 : 1);
  }
  return ranks;
}

/** Dense ranks (1, 2, …) of values in any order. */
function denseRankBy(values: readonly number[]): Uint32Array {
  const distinct = [...new Set(values)].sort((p, q) => p - q);
  const rankOf = new Map(distinct.map((value, index) => [value, index + 1]));
  return Uint32Array.from(values, (value) => rankOf.get(value)!);
}

/** Pairs sharing a value, over dense ranks. */
function tiedPairs(ranks: Uint32Array): number {
  const counts = new Map<number, number>();
  for (const rank of ranks) counts.set(rank, (counts.get(rank) ?? 0) + 1);
  let pairs = 0;
  for (const count of counts.values()) pairs += (count * (count - 1)) / 2;
  return pairs;
}

function checkPaired(x: readonly number[], y: readonly number[], minimum: number): void {
  if (x.length !== y.length) throw new RangeError("y: must have as many values as x");
  if (x.length < minimum) throw new RangeError(`x: must have at least ${minimum} values`);
  for (const [name, values] of [["x", x], ["y", y]] as const) {
    const bad = values.findIndex((value) => !Number.isFinite(value));
    if (bad !== -1) throw new RangeError(`${name}.${bad}: must be a finite number`);
  }
}
