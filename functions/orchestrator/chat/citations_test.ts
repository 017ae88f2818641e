import assert from "node:assert/strict";
import { annotate, citationUrl, type Source } from "./citations.ts";

const rrf: Source = { index: 1, id: "rrf#0", doc_id: "rrf", title: "RRF", text: "...", score: 1 };
const bm25: Source = {
  index: 2,
  id: "bm25#3",
  doc_id: "bm25",
  text: "...",
  url: "https://example.org/bm25",
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
