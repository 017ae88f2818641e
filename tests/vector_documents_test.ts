/**
 * Listing and reading documents back, the same contract on every index
 * adapter: the embedded `LocalIndex`, and `UpstashVectorIndex` through
 * `@upstash/vector` against the local REST server. (The Durable Object runs
 * a `LocalIndex`; tests/e2e/state_object_test.ts reaches it under workerd.)
 */
import assert from "node:assert/strict";
import { InvalidRequestError } from "../shared/errors.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import type { IndexedChunk, VectorIndex } from "../shared/vector/port.ts";
import { UpstashVectorIndex } from "../adapters/upstash/vector.ts";
import { startVectorRestServer } from "./helpers/vector_rest_server.ts";

const NAMESPACE = "papers";

function chunksOf(
  docId: string,
  count: number,
  extra: Record<string, unknown> = {},
): IndexedChunk[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `${docId}#${n}`,
    text: `${docId} part ${n}`,
    vector: [1, n + 1, 0.5],
    metadata: { doc_id: docId, chunk_index: n, ...extra },
  }));
}

const ADAPTERS: { name: string; open: () => { index: VectorIndex; close: () => Promise<void> } }[] =
  [
    {
      name: "LocalIndex",
      open: () => ({ index: new LocalIndex(), close: () => Promise.resolve() }),
    },
    {
      name: "UpstashVectorIndex",
      open: () => {
        const server = startVectorRestServer();
        const index = new UpstashVectorIndex({ url: server.url, token: server.token, retries: 0 });
        return { index, close: () => server.close() };
      },
    },
  ];

for (const { name, open } of ADAPTERS) {
  Deno.test(`${name}: listDocuments() pages through a namespace's documents by id, each once`, async () => {
    const { index, close } = open();
    try {
      // Ids that sort apart from their chunks' ids ("a#1" > "a-b#0" > "a#0"), and a "#" inside an id.
      const docs = ["a", "a-b", "b#v2", "c", "d", "e", "f"];
      for (const [at, id] of docs.entries()) {
        await index.upsert(
          chunksOf(id, at + 1, {
            title: `Title ${id}`,
            source: `${id}.pdf`,
            ingested_at: "2026-11-25T10:00:00.000Z",
          }),
          { namespace: NAMESPACE },
        );
      }
      await index.upsert(chunksOf("elsewhere", 1), { namespace: "other" });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await index.listDocuments({ namespace: NAMESPACE, limit: 3, cursor });
        assert.ok(page.documents.length <= 3);
        seen.push(...page.documents.map((document) => document.id));
        cursor = page.cursor;
        pages++;
      } while (cursor && pages < 10);
      assert.deepEqual([...seen].sort(), [...docs].sort());
      const first = await index.listDocuments({ namespace: NAMESPACE, limit: 100 });
      assert.equal(first.cursor, undefined);
      const c = first.documents.find((document) => document.id === "c");
      assert.deepEqual(c, {
        id: "c",
        title: "Title c",
        source: "c.pdf",
        chunks: 4,
        ingested_at: "2026-11-25T10:00:00.000Z",
      });
      assert.deepEqual(await index.listDocuments({ namespace: "empty", limit: 5 }), {
        documents: [],
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: getDocument() gives a document's chunks in order with text and metadata, none for an unknown id`, async () => {
    const { index, close } = open();
    try {
      await index.upsert(chunksOf("bert", 3, { section: "BERT > 3.1", page: 4 }).reverse(), {
        namespace: NAMESPACE,
      });
      await index.upsert(chunksOf("bert#v2", 1), { namespace: NAMESPACE });
      const chunks = await index.getDocument("bert", { namespace: NAMESPACE });
      assert.deepEqual(chunks.map((chunk) => chunk.id), ["bert#0", "bert#1", "bert#2"]);
      assert.equal(chunks[1]!.text, "bert part 1");
      assert.deepEqual(chunks[1]!.metadata, {
        doc_id: "bert",
        chunk_index: 1,
        section: "BERT > 3.1",
        page: 4,
      });
      assert.deepEqual(await index.getDocument("nope", { namespace: NAMESPACE }), []);
      assert.deepEqual(await index.getDocument("bert", { namespace: "other" }), []);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: listDocuments() refuses a cursor no page gave, naming cursor`, async () => {
    const { index, close } = open();
    try {
      await index.upsert(chunksOf("a", 1), { namespace: NAMESPACE });
      for (const cursor of ["%%%", "bm90IGpzb24", ""]) {
        await assert.rejects(
          index.listDocuments({ namespace: NAMESPACE, limit: 2, cursor: cursor || "!" }),
          (error) => error instanceof InvalidRequestError && /^cursor:/.test(error.message),
        );
      }
    } finally {
      await close();
    }
  });
}
