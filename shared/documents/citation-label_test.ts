import assert from "node:assert/strict";
import { citationLabel, citationLabels, citedFromMetadata } from "./citation-label.ts";

Deno.test("citationLabel() gives title, numbered section and page", () => {
  assert.equal(
    citationLabel({ title: "RoBERTa", section: "RoBERTa > 4 Experiments > 4.1 Training", page: 6 }),
    "RoBERTa, §4.1, p. 6",
  );
  assert.equal(
    citationLabel({ title: "Notes", section: "Notes > Setup", page: 2, page_end: 3 }),
    "Notes, § Setup, pp. 2-3",
  );
  assert.equal(citationLabel({ title: "Paper", page: 4, page_end: 4 }), "Paper, p. 4");
  assert.equal(citationLabel({ doc_id: "bert" }), "bert");
  assert.equal(citationLabel({ title: "A", section: "A > B. Appendix" }), "A, §B");
});

Deno.test("citationLabels() tells two chunks of one document apart when nothing else does", () => {
  const labels = citationLabels([
    { title: "RoBERTa", id: "roberta#0", chunk_index: 0 },
    { title: "BERT", id: "bert#2", chunk_index: 2 },
    { title: "RoBERTa", id: "roberta#5", chunk_index: 5 },
    { title: "BERT", id: "bert#3", chunk_index: 3, page: 4 },
  ]);
  assert.deepEqual(labels, ["RoBERTa, chunk 1", "BERT", "RoBERTa, chunk 6", "BERT, p. 4"]);
});

Deno.test("citedFromMetadata() keeps only well-formed fields", () => {
  assert.deepEqual(
    citedFromMetadata({
      doc_id: "d",
      chunk_index: 1,
      title: "T",
      section: 5,
      page: -1,
      page_end: 2,
    }),
    {
      title: "T",
      doc_id: "d",
      section: undefined,
      page: undefined,
      page_end: 2,
      chunk_index: 1,
    },
  );
});
