import assert from "node:assert/strict";
import { bestHalf, halfKeepingThresholds } from "./thresholds.ts";

Deno.test("bestHalf() keeps ceil(n/2) rows by mean score, ties to the earlier row", () => {
  assert.deepEqual(bestHalf([{ a: 0.2 }, { a: 0.9 }, { a: 0.5 }], ["a"]), [1, 2]);
  assert.deepEqual(bestHalf([{ a: 0.5 }, { a: 0.5 }, { a: 0.5 }, { a: 0.5 }], ["a"]), [0, 1]);
  assert.deepEqual(bestHalf([], ["a"]), []);
});

Deno.test("halfKeepingThresholds() lets the best half by mean meet every threshold", () => {
  const rows = [
    { a: 0.29, b: 0.9 },
    { a: 0.8, b: 0.1 },
    { a: 0.6, b: 0.6 },
    { a: 0.1, b: 0.2 },
  ];
  const thresholds = halfKeepingThresholds(rows, ["a", "b"]);
  // Best half by mean: rows 2 (0.6) and 0 (0.595).
  assert.deepEqual(thresholds, { a: 0.29, b: 0.6 });
  const kept = rows.filter((row) => row.a >= thresholds.a! && row.b >= thresholds.b!);
  assert.deepEqual(kept, [rows[0], rows[2]]);
  assert.deepEqual(halfKeepingThresholds([], ["a"]), { a: 0 });
});
