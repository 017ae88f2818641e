import assert from "node:assert/strict";
import { futureDateProblem } from "./dates.ts";

const NOW = Date.UTC(2026, 10, 22, 12);
const HOUR = 3600 * 1000;

Deno.test("futureDateProblem() allows up to a day ahead, refuses beyond", () => {
  assert.equal(futureDateProblem(new Date(NOW + 23 * HOUR).toISOString(), NOW), undefined);
  assert.match(futureDateProblem(new Date(NOW + 25 * HOUR).toISOString(), NOW) ?? "", /future/);
});

Deno.test("futureDateProblem() reads years, bare or inside free text, and leaves the rest", () => {
  assert.match(futureDateProblem("2099", NOW) ?? "", /future/);
  assert.match(futureDateProblem(2099, NOW) ?? "", /future/);
  assert.match(futureDateProblem("circa Spring 2099", NOW) ?? "", /future/);
  assert.equal(futureDateProblem("2019-05-24", NOW), undefined);
  assert.equal(futureDateProblem("2026", NOW), undefined, "this year's start is past");
  assert.equal(futureDateProblem("undated", NOW), undefined);
  assert.equal(futureDateProblem(123456, NOW), undefined, "not a year");
  assert.equal(futureDateProblem(["2099"], NOW), undefined);
});
