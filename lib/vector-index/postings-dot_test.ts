import assert from "node:assert/strict";
import { mulberry32 } from "./random.ts";
import { dimensionPostings, type Postings } from "./postings.ts";
import { PostingsDot } from "./postings-dot.ts";

type Case = {
  dims: (Postings<Float32Array> | undefined)[];
  /** Each slot's vector, for the plain dot product. */
  rows: Float32Array[];
  query: Float32Array;
};

/**
 * `slots` vectors of `width` dimensions with `perRow` nonzero entries drawn
 * from few values (so scores tie and cancel to exactly 0), and a query with
 * `queryDims` of them set, signs mixed.
 */
function makeCase(
  random: () => number,
  slots: number,
  width: number,
  perRow: number,
  queryDims: number,
): Case {
  const pick = () => [-0.5, -0.25, 0.25, 0.5, 1][Math.floor(random() * 5)]!;
  const rows = Array.from({ length: slots }, () => {
    const row = new Float32Array(width);
    for (let n = 0; n < perRow; n++) row[Math.floor(random() * width)] = pick();
    return row;
  });
  const dims: (Postings<Float32Array> | undefined)[] = [];
  rows.forEach((row, slot) =>
    row.forEach((value, dim) => {
      if (value === 0) return;
      (dims[dim] ??= dimensionPostings()).push(slot, value);
    })
  );
  const query = new Float32Array(width);
  for (let n = 0; n < queryDims; n++) query[Math.floor(random() * width)] = pick();
  return { dims, rows, query };
}

/** The `limit` best accepted slots by a plain dot product over every slot. */
function plainTop(
  { rows, query }: Case,
  limit: number,
  accept: (slot: number) => boolean,
  before: (a: number, b: number) => boolean,
) {
  return rows
    .map((row, slot) => ({
      slot,
      score: row.reduce((sum, value, dim) => sum + value * query[dim]!, 0),
    }))
    .filter(({ slot }) => accept(slot))
    .sort((a, b) => b.score - a.score || (before(a.slot, b.slot) ? -1 : 1))
    .slice(0, limit);
}

function assertSame(
  got: { slots: Int32Array; scores: Float64Array },
  expected: { slot: number; score: number }[],
  label: string,
) {
  assert.deepEqual([...got.slots], expected.map(({ slot }) => slot), label);
  got.scores.forEach((score, i) => assert.ok(Math.abs(score - expected[i]!.score) < 1e-9, label));
}

Deno.test("PostingsDot returns a plain dot product's top k, whether it reads every slot back or only the touched ones", () => {
  const random = mulberry32(17);
  const dot = new PostingsDot();
  for (let round = 0; round < 300; round++) {
    const slots = 1 + Math.floor(random() * 120);
    // Sparse queries over wide vectors touch few slots (the list); dense ones touch most (the full read-back).
    const sparse = round % 2 === 0;
    const shape = sparse ? makeCase(random, slots, 200, 2, 2) : makeCase(random, slots, 12, 6, 6);
    const limit = Math.floor(random() * 15);
    const descending = (a: number, b: number) => a > b;
    const before = round % 3 === 0 ? descending : (a: number, b: number) => a < b;
    const accept = round % 4 === 1 ? (slot: number) => slot % 3 !== 0 : () => true;
    const got = dot.search(shape.dims, shape.query, slots, limit, accept, before);
    assertSame(got, plainTop(shape, limit, accept, before), `round ${round}`);
  }
});

Deno.test("PostingsDot fills a top k that the touched slots cannot with untouched ones at 0, ahead of negative scores", () => {
  const dims = [dimensionPostings(), dimensionPostings()];
  dims[0]!.push(1, 0.5);
  dims[0]!.push(4, -0.5);
  dims[1]!.push(4, 0.25);
  const query = Float32Array.of(1, 1);
  const before = (a: number, b: number) => a < b;
  const got = new PostingsDot().search(dims, query, 6, 4, () => true, before);
  // Slot 1 scores 0.5, slots 0, 2, 3 score 0 (untouched), slot 4 scores -0.25 and is left out.
  assert.deepEqual([...got.slots], [1, 0, 2, 3]);
  assert.deepEqual([...got.scores], [0.5, 0, 0, 0]);
});

Deno.test("PostingsDot answers correctly after a query whose filter threw half way", () => {
  const random = mulberry32(3);
  const shape = makeCase(random, 80, 12, 6, 6);
  const dot = new PostingsDot();
  const before = (a: number, b: number) => a < b;
  assert.throws(
    () =>
      dot.search(shape.dims, shape.query, 80, 5, () => {
        throw new Error("filter failed");
      }, before),
    /filter failed/,
  );
  const got = dot.search(shape.dims, shape.query, 80, 5, () => true, before);
  assertSame(got, plainTop(shape, 5, () => true, before), "after the throw");
});
