import assert from "node:assert/strict";
import { toJsonPathFilter } from "./filter.ts";

Deno.test("toJsonPathFilter() binds every value and quotes every field name", () => {
  const filter = toJsonPathFilter({ 'we"ird': "x", year: { gte: 2019, lt: 2021 } });
  assert.equal(
    filter?.path,
    'exists($."we\\"ird" ? (@ == $v0)) && exists($."year" ? (@ >= $v1 && @ < $v2))',
  );
  assert.deepEqual(filter?.vars, { v0: "x", v1: 2019, v2: 2021 });
});

Deno.test("toJsonPathFilter() lets `ne` alone match a missing field, as matchesFilter does", () => {
  assert.equal(
    toJsonPathFilter({ lang: { ne: "de" } })?.path,
    '(!exists($."lang") || exists($."lang" ? (@ != $v0)))',
  );
  assert.equal(toJsonPathFilter({ lang: { in: [] } })?.path, 'exists($."lang" ? (1 == 2))');
  assert.equal(toJsonPathFilter({}), undefined);
});
