import assert from "node:assert/strict";
import { searchableText } from "../vector/port.ts";
import type { Block } from "./blocks.ts";
import { chunkDocuments } from "./ingest.ts";

Deno.test("chunkDocuments() keeps a parser's section and pages in each chunk's metadata", async () => {
  const blocks: Block[] = [
    { kind: "heading", text: "RoBERTa", section: ["RoBERTa"], level: 1, page: 1 },
    {
      kind: "heading",
      text: "4.1 Training",
      section: ["RoBERTa", "4.1 Training"],
      level: 2,
      page: 5,
    },
    {
      kind: "paragraph",
      text: "We train longer, with bigger batches.",
      section: ["RoBERTa", "4.1 Training"],
      page: 5,
    },
    { kind: "paragraph", text: "Over more data.", section: ["RoBERTa", "4.1 Training"], page: 6 },
  ];
  const [document] = await chunkDocuments([{
    id: "roberta",
    title: "RoBERTa",
    text: blocks.map((block) => block.text).join("\n\n"),
    metadata: { source: "roberta.pdf" },
    blocks,
  }], { size: 400, overlap: 50 });
  assert.equal(document!.chunks.length, 1);
  const [chunk] = document!.chunks;
  assert.equal(chunk!.id, "roberta#0");
  assert.equal(
    chunk!.text,
    "4.1 Training\n\nWe train longer, with bigger batches.\n\nOver more data.",
  );
  assert.deepEqual(
    { ...chunk!.metadata, ingested_at: undefined },
    {
      source: "roberta.pdf",
      doc_id: "roberta",
      title: "RoBERTa",
      ingested_at: undefined,
      chunk_index: 0,
      section: "RoBERTa > 4.1 Training",
      page: 5,
      page_end: 6,
    },
  );
  assert.ok(!Number.isNaN(Date.parse(String(chunk!.metadata.ingested_at))));
  // The heading path is matched on, after the title.
  assert.ok(searchableText(chunk!).startsWith("RoBERTa\nRoBERTa > 4.1 Training\n4.1 Training"));
});

Deno.test("chunkDocuments() reads a JSON document's text as paragraphs, with no section or page", async () => {
  const [document] = await chunkDocuments([{ id: "notes", text: "One.\n\nTwo." }], {
    size: 400,
    overlap: 50,
  });
  assert.equal(document!.chunks[0]!.text, "One.\n\nTwo.");
  for (const key of ["section", "page", "page_end"]) {
    assert.equal(key in document!.chunks[0]!.metadata, false, key);
  }
});
