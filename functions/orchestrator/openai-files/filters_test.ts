import assert from "node:assert/strict";
import { siftFilters } from "./filters.ts";

Deno.test("siftFilters() turns and / or into one sift filter per and-group", () => {
  assert.deepEqual(siftFilters(undefined), [{}]);
  assert.deepEqual(siftFilters({ type: "eq", key: "team", value: "a" }), [{
    attr_team: { eq: "a" },
  }]);
  assert.deepEqual(
    siftFilters({
      type: "and",
      filters: [
        {
          type: "or",
          filters: [{ type: "eq", key: "t", value: "a" }, { type: "eq", key: "t", value: "b" }],
        },
        { type: "gte", key: "year", value: 2020 },
        { type: "gt", key: "year", value: 2021 },
      ],
    }),
    [
      { attr_t: { eq: "a" }, attr_year: { gte: 2020, gt: 2021 } },
      { attr_t: { eq: "b" }, attr_year: { gte: 2020, gt: 2021 } },
    ],
  );
});

Deno.test("siftFilters() drops an and-group nothing can match and refuses what it cannot say", () => {
  assert.deepEqual(
    siftFilters({
      type: "and",
      filters: [{ type: "eq", key: "t", value: "a" }, { type: "eq", key: "t", value: "b" }],
    }),
    [],
  );
  assert.throws(
    () =>
      siftFilters({
        type: "and",
        filters: [{ type: "ne", key: "t", value: "a" }, { type: "ne", key: "t", value: "b" }],
      }),
    /two ne comparisons on "t"/,
  );
  const wide = {
    type: "or" as const,
    filters: Array.from({ length: 5 }, (_, i) => ({ type: "eq" as const, key: "k", value: i })),
  };
  assert.throws(() => siftFilters({ type: "and", filters: [wide, wide] }), /at most 16 and-groups/);
  assert.throws(() => siftFilters({ type: "eq", key: "k", value: [1, 2] }), /eq takes a string/);
});
