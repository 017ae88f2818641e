import assert from "node:assert/strict";
import { vectorLiteral } from "./vector-literal.ts";

Deno.test("vectorLiteral gives back every single-precision value exactly", () => {
  const values = [0.1, 1 / 3, -0.003978729248046875, 1e-30, 123456.789, 0, -1, 2 ** -126];
  const parsed = vectorLiteral(values).slice(1, -1).split(",").map(Number);
  assert.deepEqual(parsed.map(Math.fround), values.map(Math.fround));
  assert.equal(vectorLiteral([0.1, 1 / 3]), "[0.100000001,0.333333343]");
});
