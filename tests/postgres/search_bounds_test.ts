/**
 * Search reads what it must and writers share a namespace (#41), on the
 * native server: sparse search is exact BM25 (the embedded index's ranking)
 * while reading only the chunks that hold its rare terms, counted by the
 * server (`pg_stat_user_tables`); dense search walks the HNSW graph past
 * 2,000 chunks and reads a small namespace exactly; writers of different
 * documents of one namespace do not wait for each other, and of one document
 * they take turns.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { LocalIndex } from "../../adapters/vector-index/local.ts";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { searchStatement } from "../../adapters/postgres/search-sql.ts";
import { queryTerms } from "../../adapters/postgres/terms.ts";
import { lockDocuments } from "../../adapters/postgres/write.ts";
import { mulberry32 } from "../../shared/random.ts";
import { nativeServer } from "./servers.ts";

const server = nativeServer("search_bounds_test");
const options = { ignore: server.ignore, sanitizeResources: false, sanitizeOps: false };

const chunk = (doc: string, i: number, text: string, vector: number[]): IndexedChunk => ({
  id: `${doc}#${i}`,
  text,
  vector,
  metadata: { doc_id: doc, chunk_index: i },
});

/** Writes `chunks` in documents of 500, to each index. */
async function writeAll(indexes: { upsert: PostgresIndex["upsert"] }[], chunks: IndexedChunk[]) {
  for (let start = 0; start < chunks.length; start += 500) {
    for (const index of indexes) {
      await index.upsert(chunks.slice(start, start + 500), { namespace: "bounds" });
    }
  }
}

/**
 * `statement` run in a transaction of its own, and how many rows of
 * sift_chunks it read: the transaction's own counters, exact and at once.
 */
async function rowsRead(
  sql: postgres.Sql,
  statement: { text: string; values: unknown[] },
): Promise<{ rows: { id: string }[]; read: number }> {
  return await sql.begin(async (tx) => {
    const rows = await tx.unsafe<{ id: string }[]>(statement.text, statement.values as never[]);
    const [count] = await tx<{ read: string }[]>`
      SELECT pg_stat_get_xact_tuples_fetched('sift_chunks'::regclass)
        + pg_stat_get_xact_tuples_returned('sift_chunks'::regclass) AS read`;
    return { rows: [...rows], read: Number(count!.read) };
  });
}

Deno.test({
  ...options,
  name: "sparse search ranks as exact BM25 and reads only the chunks holding its rare terms",
  fn: async () => {
    const db = await server.start();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const local = new LocalIndex();
    const writer = new PostgresIndex({ url: db.url });
    try {
      // 3,000 chunks hold "harbour" and "ferry"; five of them "lighthouse" too.
      const chunks = Array.from({ length: 3000 }, (_, i) =>
        chunk(
          `doc${Math.floor(i / 500)}`,
          i % 500,
          `harbour ferry ${"timetable ".repeat(i % 7)}note ${i}${
            i % 600 === 7 ? " lighthouse keeper" : ""
          }`,
          [1, i % 3, 0, 1],
        ));
      await writeAll([local, writer], chunks);
      for (
        const [text, topK] of [["lighthouse harbour ferry", 3], ["lighthouse ferry", 8]] as const
      ) {
        const want = await local.query({ text, mode: "sparse", topK, namespace: "bounds" });
        const got = await writer.query({ text, mode: "sparse", topK, namespace: "bounds" });
        assert.deepEqual(got.map((hit) => hit.id), want.map((hit) => hit.id), text);
        got.forEach((hit, i) => assert.ok(Math.abs(hit.score - want[i]!.score) < 1e-9, text));
        // Five chunks hold "lighthouse": a top 3 reads those (and the three it returns); a top
        // 8 needs the chunks holding "ferry" too, all 3,000.
        const { rows, read } = await rowsRead(
          sql,
          searchStatement({
            mode: "sparse",
            tenant: "",
            namespace: "bounds",
            topK,
            terms: queryTerms(text),
            filter: undefined,
          }),
        );
        assert.deepEqual(rows.map((row) => row.id), want.map((hit) => hit.id));
        if (topK === 3) assert.ok(read <= 10, `read ${read} chunks for a top 3`);
        else assert.ok(read >= 3000, `read ${read} chunks for a top 8`);
      }
    } finally {
      await writer.close();
      await sql.end({ timeout: 5 });
      await db[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  ...options,
  name: "dense search walks the graph past 2,000 chunks and reads a small namespace exactly",
  fn: async () => {
    const db = await server.start();
    const index = new PostgresIndex({ url: db.url });
    try {
      const random = mulberry32(11);
      const vector = () => Array.from({ length: 8 }, () => random() - 0.5);
      const many = Array.from(
        { length: 2500 },
        (_, i) => chunk(`doc${Math.floor(i / 500)}`, i % 500, `note ${i}`, vector()),
      );
      await writeAll([index], many);
      const few = Array.from({ length: 40 }, (_, i) => chunk("small", i, `note ${i}`, vector()));
      await index.upsert(few, { namespace: "small" });
      const cosine = (a: number[], b: number[]) => {
        let dot = 0, na = 0, nb = 0;
        for (let i = 0; i < a.length; i++) {
          dot += a[i]! * b[i]!;
          na += a[i]! ** 2;
          nb += b[i]! ** 2;
        }
        return dot / Math.sqrt(na * nb);
      };
      const nearest = (chunks: IndexedChunk[], query: number[], k: number) =>
        chunks.map((c) => ({ id: c.id, score: cosine(c.vector, query) }))
          .sort((a, b) => b.score - a.score).slice(0, k).map((hit) => hit.id);
      let found = 0;
      for (let q = 0; q < 20; q++) {
        const query = vector();
        const got = await index.query({
          text: "",
          vector: query,
          mode: "dense",
          topK: 10,
          namespace: "bounds",
        });
        const want = new Set(nearest(many, query, 10));
        found += got.filter((hit) => want.has(hit.id)).length;
        const small = await index.query({
          text: "",
          vector: query,
          mode: "dense",
          topK: 5,
          namespace: "small",
        });
        assert.deepEqual(small.map((hit) => hit.id), nearest(few, query, 5));
      }
      assert.ok(found / 200 >= 0.95, `recall@10 ${found / 200}`);
    } finally {
      await index.close();
      await db[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  ...options,
  name:
    "writers of different documents of one namespace do not wait for each other; of one, they take turns",
  fn: async () => {
    const db = await server.start();
    const sql = postgres(db.url, { max: 2, onnotice: () => {} });
    const index = new PostgresIndex({ url: db.url });
    // Ends the first writer's transaction, also when an assertion fails first.
    let release = () => {};
    try {
      await index.upsert([chunk("x", 0, "the first harbour note", [1, 0, 0, 1])], {
        namespace: "turns",
      });
      // A writer of document x is in the middle of its write: it holds x's lock.
      const held = new Promise<void>((resolve) => release = resolve);
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => holding = resolve);
      const first = sql.begin(async (tx) => {
        await lockDocuments(tx, "", "turns", ["x"]);
        holding();
        await held;
      });
      await holds;
      // Another document goes through meanwhile.
      await index.upsert([chunk("y", 0, "a note of its own", [0, 1, 0, 1])], {
        namespace: "turns",
      });
      // The same document waits for the first writer's commit.
      let done = false;
      const second = index.upsert([chunk("x", 0, "x written second", [1, 0, 0, 1])], {
        namespace: "turns",
      }).then(() => done = true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(done, false, "the second writer of x did not wait");
      release();
      await first;
      await second;
      const rows = await sql<{ id: string; text: string }[]>`
        SELECT id, text FROM sift_chunks WHERE namespace = 'turns' ORDER BY id`;
      assert.deepEqual(rows.map((row) => [row.id, row.text]), [
        ["x#0", "x written second"],
        ["y#0", "a note of its own"],
      ]);
      const [stats] = await sql<{ chunks: string }[]>`
        SELECT chunks FROM sift_namespaces WHERE namespace = 'turns'`;
      assert.equal(Number(stats!.chunks), 2);
      const [terms] = await sql<{ df: number }[]>`
        SELECT df FROM sift_terms WHERE namespace = 'turns' AND term = 'note'`;
      assert.equal(terms!.df, 1, "BM25's statistics moved by each write's difference");
    } finally {
      release();
      await index.close();
      await sql.end({ timeout: 5 });
      await db[Symbol.asyncDispose]();
    }
  },
});
