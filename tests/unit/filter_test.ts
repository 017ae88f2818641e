import assert from "node:assert/strict";
import { matchesFilter } from "../../shared/search/filter.ts";

const paper = {
  doc_id: "bert",
  chunk_index: 2,
  year: 2019,
  published: "2019-05-24",
  venue: "NAACL",
  tags: ["nlp", "transformers"],
};

Deno.test("matchesFilter() accepts anything without a filter", () => {
  assert.equal(matchesFilter(paper, undefined), true);
  assert.equal(matchesFilter(paper, {}), true);
});

Deno.test("matchesFilter() treats a bare value as equality", () => {
  assert.equal(matchesFilter(paper, { doc_id: "bert" }), true);
  assert.equal(matchesFilter(paper, { doc_id: "gpt" }), false);
  assert.equal(matchesFilter(paper, { year: 2019 }), true);
  assert.equal(matchesFilter(paper, { year: "2019" }), false, "no type coercion");
});

Deno.test("matchesFilter() compares with eq, ne, gt, gte, lt, lte and in", () => {
  assert.equal(matchesFilter(paper, { year: { eq: 2019 } }), true);
  assert.equal(matchesFilter(paper, { year: { ne: 2019 } }), false);
  assert.equal(matchesFilter(paper, { year: { gt: 2018 } }), true);
  assert.equal(matchesFilter(paper, { year: { gt: 2019 } }), false);
  assert.equal(matchesFilter(paper, { year: { gte: 2019, lte: 2019 } }), true);
  assert.equal(matchesFilter(paper, { year: { lt: 2019 } }), false);
  assert.equal(matchesFilter(paper, { published: { gte: "2019-01-01", lt: "2020-01-01" } }), true);
  assert.equal(matchesFilter(paper, { venue: { in: ["ACL", "NAACL"] } }), true);
  assert.equal(matchesFilter(paper, { venue: { in: ["ACL"] } }), false);
});

Deno.test("matchesFilter() requires every condition (AND)", () => {
  assert.equal(matchesFilter(paper, { doc_id: "bert", year: { gte: 2019 } }), true);
  assert.equal(matchesFilter(paper, { doc_id: "bert", year: { gte: 2020 } }), false);
});

Deno.test("matchesFilter() fails a range on a missing field", () => {
  assert.equal(matchesFilter(paper, { citations: { gt: 0 } }), false);
  assert.equal(matchesFilter(paper, { missing: "x" }), false);
});

Deno.test("matchesFilter() matches a list-valued field when any element matches an operator", () => {
  assert.equal(matchesFilter(paper, { tags: { eq: "nlp" } }), true);
  assert.equal(matchesFilter(paper, { tags: { in: ["vision", "transformers"] } }), true);
  assert.equal(matchesFilter(paper, { tags: { eq: "vision" } }), false);
});

Deno.test({
  name: "matchesFilter() matches a list-valued field when any element equals a bare value",
  fn() {
    assert.equal(matchesFilter(paper, { tags: "nlp" }), true);
    assert.equal(matchesFilter(paper, { tags: "vision" }), false);
  },
});

Deno.test("matchesFilter() reads only the metadata's own properties", () => {
  const inheriting = Object.assign(Object.create({ venue: "ACL", year: 2030 }), { doc_id: "x" });
  assert.equal(matchesFilter(inheriting, { venue: "ACL" }), false);
  assert.equal(matchesFilter(inheriting, { year: { gte: 2020 } }), false);
  assert.equal(matchesFilter(paper, { constructor: { in: ["Object"] } }), false);
  assert.equal(matchesFilter({ constructor: "own" }, { constructor: "own" }), true);
});
