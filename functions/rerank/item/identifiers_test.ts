import assert from "node:assert/strict";
import {
  completeRanking,
  identifiersIn,
  keepValid,
  readRanking,
  readSelection,
} from "./identifiers.ts";

Deno.test("identifiersIn() reads a RankGPT chain in the order written", () => {
  assert.deepEqual(identifiersIn("[3] > [1] > [2]", 3), [3, 1, 2]);
});

Deno.test("identifiersIn() keeps the first occurrence of a repeated identifier", () => {
  assert.deepEqual(identifiersIn("[2] > [1] > [2] > [3] > [1]", 3), [2, 1, 3]);
});

Deno.test("identifiersIn() ignores identifiers outside 1..N, zero included", () => {
  assert.deepEqual(identifiersIn("[0] > [4] > [12] > [2] > [5]", 4), [4, 2]);
});

Deno.test("identifiersIn() ignores prose, markdown and bare numbers around the identifiers", () => {
  const reply = "Sure! Having read all 3 passages, here is my ranking:\n\n" +
    "```\n**[2]** > [3] > [1]\n```\nPassage 3 is close, but 2 states the figures.";
  assert.deepEqual(identifiersIn(reply, 3), [2, 3, 1]);
});

Deno.test("identifiersIn() reads ITEM's list forms: [2, 3, 15] and [[1],[2]]", () => {
  assert.deepEqual(identifiersIn("My selection: [2, 3, 15].", 20), [2, 3, 15]);
  assert.deepEqual(identifiersIn("My selection:[[4],[1]]", 5), [4, 1]);
});

Deno.test("identifiersIn() reads bare chains, and numbers cited in prose as nothing", () => {
  assert.deepEqual(identifiersIn("3 > 1 > 2", 3), [3, 1, 2]);
  assert.deepEqual(identifiersIn("[2] then 3 > 1", 3), [2, 3, 1]);
  assert.deepEqual(identifiersIn("[2] states the year, as [1] does.", 3), []);
  assert.deepEqual(identifiersIn("Passage 3 is the best one.", 3), []);
});

Deno.test("identifiersIn() does not read a decimal or a negative number as an identifier", () => {
  assert.deepEqual(identifiersIn("[1.5] > [3] > [2]", 3), [3, 2]);
  assert.deepEqual(
    identifiersIn("[-2] > [2]", 3),
    [],
    "a negative number makes the line unreadable",
  );
});

Deno.test("keepValid() applies the same rules to a JSON array of numbers", () => {
  assert.deepEqual(keepValid([3, "1", 3, 0, 2.5, 7, 1, null], 3), [3, 1]);
});

Deno.test("completeRanking() appends the passages left out in their presented order", () => {
  assert.deepEqual(completeRanking([3, 1], 5), [2, 0, 1, 3, 4]);
  assert.deepEqual(completeRanking([5, 9, 5], 5), [4, 0, 1, 2, 3]);
  assert.equal(completeRanking([], 5), undefined);
  assert.equal(completeRanking([0, 6], 5), undefined);
});

Deno.test("readRanking() gives 0-based positions, or undefined for an empty or unusable reply", () => {
  assert.deepEqual(readRanking("[2] > [2] > [9] > [4]", 4), [1, 3, 0, 2]);
  assert.equal(readRanking("", 4), undefined);
  assert.equal(readRanking("I cannot rank these passages.", 4), undefined);
  assert.equal(readRanking("[0] > [5]", 4), undefined);
});

Deno.test("readSelection() tells an explicit none from an unusable reply", () => {
  assert.deepEqual(readSelection("[3] > [1]", 3), [2, 0]);
  assert.deepEqual(readSelection("None.", 3), []);
  assert.deepEqual(readSelection("My selection: []", 3), []);
  assert.equal(readSelection("", 3), undefined);
  assert.equal(readSelection("   \n", 3), undefined);
  assert.equal(readSelection("The passages are all about cats.", 3), undefined);
  assert.equal(readSelection("[7] > [8]", 3), undefined);
});
