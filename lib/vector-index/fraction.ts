/** An exact rational `numerator / denominator`, denominator > 0, kept in lowest terms. */
export type Fraction = { numerator: bigint; denominator: bigint };

export const ZERO: Fraction = { numerator: 0n, denominator: 1n };

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function reduced(numerator: bigint, denominator: bigint): Fraction {
  if (denominator < 0n) [numerator, denominator] = [-numerator, -denominator];
  const divisor = gcd(numerator, denominator);
  return divisor > 1n
    ? { numerator: numerator / divisor, denominator: denominator / divisor }
    : { numerator, denominator };
}

/**
 * The exact value of a finite double. Every finite double is a dyadic
 * rational (an integer over a power of two), so this loses nothing: `0.1`
 * becomes 3602879701896397 / 2^55, the number JSON's `0.1` parses to.
 *
 * @example
 * fractionOf(0.75); // { numerator: 3n, denominator: 4n }
 */
export function fractionOf(value: number): Fraction {
  if (!Number.isFinite(value)) throw new RangeError("only finite numbers have an exact fraction");
  let scaled = value;
  let denominator = 1n;
  // At most 1074 doublings: the smallest subnormal is 2^-1074.
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    denominator *= 2n;
  }
  return reduced(BigInt(scaled), denominator);
}

export function addFractions(x: Fraction, y: Fraction): Fraction {
  return reduced(
    x.numerator * y.denominator + y.numerator * x.denominator,
    x.denominator * y.denominator,
  );
}

/** `x / y`; `y` must not be zero. */
export function divideFractions(x: Fraction, y: Fraction): Fraction {
  if (y.numerator === 0n) throw new RangeError("division by zero");
  return reduced(x.numerator * y.denominator, x.denominator * y.numerator);
}

/** Negative when x < y, 0 when equal, positive when x > y: exactly. */
export function compareFractions(x: Fraction, y: Fraction): number {
  const difference = x.numerator * y.denominator - y.numerator * x.denominator;
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
