import assert from "node:assert/strict";
import { type AnswerDocument, citationsIn } from "../../functions/answer/answer.ts";

const documents: AnswerDocument[] = [
  { text: "one", id: "a#0", doc_id: "a", title: "A", url: "https://a.test" },
  { text: "two", id: "b#0", doc_id: "b" },
  { text: "three", id: "c#0", doc_id: "c", title: "C" },
];

const indexes = (answer: string) => citationsIn(answer, documents).map((c) => c.index);

Deno.test("citationsIn() reads adjacent citations [1][3]", () => {
  assert.deepEqual(indexes("Fact [1][3]."), [1, 3]);
});

Deno.test("citationsIn() reads grouped citations [1, 3] and [2; 1]", () => {
  assert.deepEqual(indexes("Fact [1, 3]."), [1, 3]);
  assert.deepEqual(indexes("Fact [2; 1]."), [2, 1]);
});

Deno.test("citationsIn() lists documents in order of first citation, once each", () => {
  assert.deepEqual(indexes("B [2]. A [1]. B again [2]. C [3][1]."), [2, 1, 3]);
});

Deno.test("citationsIn() ignores numbers outside 1..N, including [0]", () => {
  assert.deepEqual(indexes("Nothing [0]. Too far [4]. Way off [99]."), []);
  assert.deepEqual(indexes("Mixed [0, 2, 7]."), [2]);
});

Deno.test("citationsIn() ignores brackets that are not citations", () => {
  assert.deepEqual(indexes("An array [a] and [1.5] and [-1] and [ ] and no brackets 1."), []);
});

Deno.test("citationsIn() maps each citation to its document's id, doc_id, title and url", () => {
  assert.deepEqual(citationsIn("See [3] and [1] and [2].", documents), [
    { index: 3, id: "c#0", doc_id: "c", title: "C", label: "C" },
    { index: 1, id: "a#0", doc_id: "a", title: "A", url: "https://a.test", label: "A" },
    { index: 2, id: "b#0", doc_id: "b", label: "b" },
  ]);
});

Deno.test("citationsIn() labels citations with section and page, and tells two chunks of one document apart", () => {
  const chunks: AnswerDocument[] = [
    {
      text: "x",
      id: "rob#4",
      doc_id: "rob",
      title: "RoBERTa",
      section: "RoBERTa > 4.1 Masking",
      page: 6,
      chunk_index: 4,
    },
    { text: "y", id: "notes#0", doc_id: "notes", title: "Notes", chunk_index: 0 },
    { text: "z", id: "notes#3", doc_id: "notes", title: "Notes", chunk_index: 3 },
  ];
  const cited = citationsIn("A [1]. B [2][3].", chunks);
  assert.deepEqual(cited.map((citation) => citation.label), [
    "RoBERTa, §4.1, p. 6",
    "Notes, chunk 1",
    "Notes, chunk 4",
  ]);
  assert.equal(cited[0]!.section, "RoBERTa > 4.1 Masking");
  assert.equal(cited[0]!.page, 6);
});
