/** The `q` quantile of `values` (the value at rank ⌊q·n⌋ of the sorted copy), as sift's benches take it. */
export const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
