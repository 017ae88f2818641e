import assert from "node:assert/strict";
import { addFractions, compareFractions, divideFractions, fractionOf } from "./fraction.ts";

Deno.test("fractionOf() gives a double's exact binary value in lowest terms", () => {
  assert.deepEqual(fractionOf(0.75), { numerator: 3n, denominator: 4n });
  assert.deepEqual(fractionOf(-6), { numerator: -6n, denominator: 1n });
  assert.deepEqual(fractionOf(0.1), { numerator: 3602879701896397n, denominator: 2n ** 55n });
  assert.throws(() => fractionOf(Number.NaN), RangeError);
});

Deno.test("compareFractions() sees sums equal that floating point tells apart", () => {
  const sum = (...denominators: number[]) =>
    denominators.reduce(
      (total, d) => addFractions(total, divideFractions(fractionOf(1), fractionOf(d))),
      fractionOf(0),
    );
  assert.notEqual(1 / 61 + 1 / 61 + 1 / 62 + 1 / 63, 1 / 63 + 1 / 62 + 1 / 61 + 1 / 61);
  assert.equal(compareFractions(sum(61, 61, 62, 63), sum(63, 62, 61, 61)), 0);
  assert.equal(compareFractions(sum(61), sum(62)), 1);
  assert.equal(compareFractions(sum(62), sum(61)), -1);
  assert.throws(() => divideFractions(fractionOf(1), fractionOf(0)), RangeError);
});
