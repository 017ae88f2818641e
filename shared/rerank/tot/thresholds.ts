/** One candidate's scores on a level's dimensions. */
export type ScoreRow = Readonly<Record<string, number>>;

/** The mean of a row's scores over `dimensions` (0 for none). */
export function meanScore(row: ScoreRow, dimensions: readonly string[]): number {
  if (dimensions.length === 0) return 0;
  return dimensions.reduce((sum, name) => sum + (row[name] ?? 0), 0) / dimensions.length;
}

/**
 * The positions of the best `ceil(n / 2)` rows by mean score, ties to the
 * earlier row: who a level keeps when its thresholds would keep no one.
 *
 * @example
 * bestHalf([{ a: 0.2 }, { a: 0.9 }, { a: 0.5 }], ["a"]); // [1, 2]
 */
export function bestHalf(rows: readonly ScoreRow[], dimensions: readonly string[]): number[] {
  return rows
    .map((row, position) => ({ position, mean: meanScore(row, dimensions) }))
    .sort((x, y) => y.mean - x.mean || x.position - y.position)
    .slice(0, Math.ceil(rows.length / 2))
    .map((entry) => entry.position)
    .sort((x, y) => x - y);
}

/**
 * Thresholds that keep about half or more, as ToT-RAG's evaluator is asked
 * to set them: each dimension's lowest score among the best half by mean,
 * rounded down to two decimals, so that whole half meets every threshold
 * (and anyone else at least as good on both). Empty rows give 0s.
 *
 * @example
 * halfKeepingThresholds([{ a: 0.2, b: 0.4 }, { a: 0.9, b: 0.555 }], ["a", "b"]); // { a: 0.9, b: 0.55 }
 */
export function halfKeepingThresholds(
  rows: readonly ScoreRow[],
  dimensions: readonly string[],
): Record<string, number> {
  const best = bestHalf(rows, dimensions).map((position) => rows[position]!);
  return Object.fromEntries(dimensions.map((name) => {
    const lowest = Math.min(...best.map((row) => row[name] ?? 0));
    // The small epsilon keeps 0.29 (28.999... hundredths) from rounding down to 0.28.
    return [name, best.length === 0 ? 0 : Math.floor(lowest * 100 + 1e-9) / 100];
  }));
}
