/**
 * Scores in (0, 1] for a result order whose first `utilityCount` entries are
 * the utility set: the r-th utility document (from 0) of u scores
 * `0.5 + 0.5 · (u − r) / u`, in (0.5, 1]; the j-th of the n others scores
 * `0.5 · (n − j) / (n + 1)`, in (0, 0.5). Every utility document so scores
 * above every other one, and the order is strictly decreasing.
 *
 * @example
 * itemScores(4, 2); // [1, 0.75, 0.3333333333333333, 0.16666666666666666]
 */
export function itemScores(total: number, utilityCount: number): number[] {
  const u = Math.min(utilityCount, total);
  const n = total - u;
  return Array.from(
    { length: total },
    (_, position) =>
      position < u ? 0.5 + (0.5 * (u - position)) / u : (0.5 * (n - (position - u))) / (n + 1),
  );
}
