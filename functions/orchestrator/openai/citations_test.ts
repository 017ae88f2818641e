import assert from "node:assert/strict";
import { annotate, citationUrl, type Source, sourcesOf } from "./citations.ts";

const rrf: Source = {
  index: 1,
  id: "rrf#0",
  doc_id: "rrf",
  title: "RRF",
  text: "...",
  label: "RRF",
  score: 1,
};
const bm25: Source = {
  index: 2,
  id: "bm25#3",
  doc_id: "bm25",
  text: "...",
  url: "https://example.org/bm25",
  label: "bm25",
  score: 0.5,
};

const ranges = (content: string, sources: Source[]) =>
  annotate(content, sources, "docs").map(({ url_citation: citation }) => [
    content.slice(citation.start_index, citation.end_index),
    citation.url,
    citation.title,
  ]);

Deno.test("annotate() gives each [n] marker a url_citation whose range is the marker", () => {
  const content = "RRF sums ranks [1]. BM25 scores terms [2].";
  assert.deepEqual(ranges(content, [rrf, bm25]), [
    ["[1]", "sift://docs/rrf%230", "RRF"],
    ["[2]", "https://example.org/bm25", "bm25"],
  ]);
});

Deno.test("annotate() reads adjacent and grouped markers, one citation per source", () => {
  const content = "Both fuse rankings [1][2], or [2, 1].";
  assert.deepEqual(ranges(content, [rrf, bm25]).map(([text, url]) => [text, url]), [
    ["[1]", "sift://docs/rrf%230"],
    ["[2]", "https://example.org/bm25"],
    ["[2, 1]", "https://example.org/bm25"],
    ["[2, 1]", "sift://docs/rrf%230"],
  ]);
});

Deno.test("annotate() leaves numbers that name no source alone", () => {
  assert.deepEqual(ranges("See [0], [3] and [12] but [1].", [rrf, bm25]), [
    ["[1]", "sift://docs/rrf%230", "RRF"],
  ]);
  assert.deepEqual(annotate("No citations here.", [rrf], "docs"), []);
});

Deno.test("annotate() counts indices in UTF-16 code units, as JS strings and OpenAI do", () => {
  const content = "Fusión 🔀 merges [1].";
  const [annotation] = annotate(content, [rrf], "docs");
  assert.equal(content.slice(annotation!.url_citation.start_index), "[1].");
});

Deno.test("citationUrl() percent-encodes the chunk id under its namespace", () => {
  assert.equal(
    citationUrl({ ...rrf, id: "a doc/with#7" }, "default"),
    "sift://default/a%20doc%2Fwith%237",
  );
});

Deno.test("sourcesOf() labels each source with title, section and page, and tells two chunks of one document apart", () => {
  const hit = (id: string, metadata: Record<string, unknown>) => ({
    id,
    doc_id: String(metadata.doc_id),
    text: "...",
    score: 0.5,
    metadata: {
      doc_id: String(metadata.doc_id),
      chunk_index: Number(id.split("#")[1]),
      ...metadata,
    },
  });
  const sources = sourcesOf([
    hit("roberta#4", {
      doc_id: "roberta",
      title: "RoBERTa",
      section: "RoBERTa > 4.1 Static masking",
      page: 6,
    }),
    hit("notes#0", { doc_id: "notes", title: "Notes" }),
    hit("notes#2", { doc_id: "notes", title: "Notes" }),
  ], new Map([["notes#2", 0.9]]));
  assert.deepEqual(sources.map((source) => source.label), [
    "RoBERTa, §4.1, p. 6",
    "Notes, chunk 1",
    "Notes, chunk 3",
  ]);
  assert.equal(sources[0]!.section, "RoBERTa > 4.1 Static masking");
  assert.equal(sources[0]!.page, 6);
  assert.equal(sources[2]!.score, 0.9);
  const [annotation] = annotate("Masking [1].", sources, "default");
  assert.equal(annotation!.url_citation.title, "RoBERTa, §4.1, p. 6");
});
