/**
 * The pruned BM25 (`Bm25Scorer` through `NamespaceIndex.sparse`) against a
 * plain exhaustive Okapi BM25 (`OkapiBm25`) on random corpora whose words
 * follow a Zipf law, as text does: a few words in most chunks, so the
 * pruning stops scanning their postings. Chunks are put, replaced and
 * removed at random between queries (document frequencies are kept, not
 * recounted), with filters, before and after a checkpoint round trip.
 */
import assert from "node:assert/strict";
import { OkapiBm25 } from "./fixtures/okapi-bm25.ts";
import { matchesFilter } from "./filter.ts";
import { mulberry32 } from "./random.ts";
import { type MetadataFilter, searchableText } from "./types.ts";
import { NamespaceIndex } from "./namespace.ts";
import { prepareChunk, type PreparedChunk } from "./prepared.ts";
import { zipf } from "./fixtures/zipf.ts";

const word = (rank: number) => `w${rank}`;

function randomChunk(rank: () => number, random: () => number, id: string): PreparedChunk {
  const text = Array.from({ length: 5 + Math.floor(random() * 40) }, () => word(rank())).join(" ");
  const doc = `d${Number(id.slice(1)) % 97}`;
  const metadata = { doc_id: doc, chunk_index: 0, group: Math.floor(random() * 4) };
  return prepareChunk({ id, text, vector: [1, 0, 0], metadata });
}

type Hit = { id: string; score: number };

/**
 * `got` is a top k of the reference: the same scores rank by rank (to float
 * rounding, since terms are summed in another order), each id's own
 * reference score equal to its rank's, and the same ids wherever no
 * rounding-close tie could swap them.
 */
function assertSameTop(got: Hit[], expected: Hit[], all: Map<string, number>, label: string) {
  assert.equal(got.length, expected.length, `${label}: length`);
  got.forEach((hit, i) => {
    const want = expected[i]!;
    assert.ok(Math.abs(hit.score - want.score) < 1e-9, `${label}: score at ${i}`);
    assert.ok(Math.abs(all.get(hit.id)! - want.score) < 1e-9, `${label}: ${hit.id} at ${i}`);
    const tied = expected.some((other, j) => j !== i && Math.abs(other.score - want.score) < 1e-9);
    if (!tied && i < expected.length - 1) assert.equal(hit.id, want.id, `${label}: id at ${i}`);
  });
}

type Query = { text: string; limit: number; filter?: MetadataFilter };

/** The namespace's answers against the reference's, which holds exactly `chunks`. */
function compareWith(
  index: NamespaceIndex,
  reference: OkapiBm25,
  chunks: ReadonlyMap<string, PreparedChunk>,
  queries: Query[],
  label: string,
) {
  queries.forEach(({ text, limit, filter }, q) => {
    const accept = filter
      ? (id: string) => matchesFilter(chunks.get(id)!.metadata, filter)
      : undefined;
    const all = new Map(
      reference.search(text, chunks.size, accept).map((hit) => [hit.id, hit.score]),
    );
    const expected = reference.search(text, limit, accept);
    assertSameTop(index.sparse(text, limit, filter), expected, all, `${label} query ${q}`);
  });
}

function compare(index: NamespaceIndex, chunks: PreparedChunk[], queries: Query[], label: string) {
  const reference = new OkapiBm25();
  for (const chunk of chunks) reference.add(chunk.id, searchableText(chunk));
  compareWith(index, reference, new Map(chunks.map((chunk) => [chunk.id, chunk])), queries, label);
}

for (const seed of [1, 2, 3, 4]) {
  Deno.test(`BM25 with pruning ranks as a plain BM25 does on a Zipf corpus with replaces and removals (seed ${seed})`, () => {
    const random = mulberry32(seed);
    const rank = zipf(random, 400 + Math.floor(random() * 1600));
    const index = new NamespaceIndex();
    const reference = new OkapiBm25();
    const live = new Map<string, PreparedChunk>();
    const idSpace = 1000 + Math.floor(random() * 2000);
    const query = (): Query => ({
      text: Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(rank())).join(" "),
      limit: 1 + Math.floor(random() * 60),
      ...(random() < 0.25 ? { filter: { group: { in: [0, 2] } } } : {}),
    });
    const drop = (id: string) => {
      live.delete(id);
      reference.remove(id);
    };
    const step = (removeShare: number) => {
      const id = `c${Math.floor(random() * idSpace)}`;
      const roll = random();
      if (roll < 0.01) {
        const doc = `d${Math.floor(random() * 97)}`;
        index.removeDocument(doc);
        for (const [key, chunk] of live) if (chunk.metadata.doc_id === doc) drop(key);
      } else if (roll < removeShare) {
        index.remove(id);
        drop(id);
      } else {
        const chunk = randomChunk(rank, random, id);
        index.put(chunk);
        live.set(id, chunk);
        reference.add(id, searchableText(chunk));
      }
    };
    for (let round = 0; round < 4; round++) {
      // Many changes, then queries with a few changes between them: document frequencies are
      // caught up both ways (recounted, or the few removals since looked up).
      for (let i = 0; i < idSpace; i++) step(0.15 * round);
      for (let q = 0; q < 12; q++) {
        for (let i = Math.floor(random() * 4); i > 0; i--) step(0.5);
        compareWith(index, reference, live, [query()], `round ${round}.${q}`);
      }
    }
    const chunks = [...live.values()];
    const queries = Array.from({ length: 12 }, query);
    compare(NamespaceIndex.build(chunks), chunks, queries, "built");
    compare(NamespaceIndex.restore(index.snapshot()), chunks, queries, "restored");
  });
}

Deno.test("BM25 pruning stops scanning a common word's posting, and the ranking stays the plain one's", () => {
  const random = mulberry32(9);
  const rank = zipf(random, 1000);
  const chunks = Array.from({ length: 4000 }, (_, i) => randomChunk(rank, random, `c${i}`));
  const index = NamespaceIndex.build(chunks);
  // w0 is in nearly every chunk, w300 in a few: once w300's chunks are scored, w0 cannot lift
  // an unscored chunk into the top 10.
  const queries = [{ text: "w0 w300", limit: 10 }, { text: "w1 w0 w250 w2", limit: 5 }];
  const before = index.sparseStats().pruned;
  compare(index, chunks, queries, "common words");
  assert.equal(index.sparseStats().pruned - before, queries.length);
});

for (const seed of [5, 6, 7]) {
  Deno.test(`BM25 with pruning ranks as a plain BM25 does on overlapping windows of one text, long queries and removals (seed ${seed})`, () => {
    // Real chunks of one corpus (ARAGOG's 250-word windows) overlap: many chunks tie or nearly
    // tie, and questions hold many terms, several common, so most terms stop being walked.
    const random = mulberry32(seed);
    const rank = zipf(random, 600);
    const text = Array.from({ length: 4000 }, () => word(rank()));
    const chunks = new Map<string, PreparedChunk>();
    for (let i = 0; i < 3000; i++) {
      const start = Math.floor(random() * (text.length - 60));
      const length = 20 + Math.floor(random() * 40);
      const id = `c${i}`;
      const chunk = prepareChunk({
        id,
        text: text.slice(start, start + length).join(" "),
        vector: [1, 0, 0],
        metadata: { doc_id: `d${i % 89}`, chunk_index: 0, group: i % 3 },
      });
      chunks.set(id, chunk);
    }
    const index = NamespaceIndex.build([...chunks.values()]);
    for (let i = 0; i < 400; i++) {
      const id = `c${Math.floor(random() * 3000)}`;
      if (index.remove(id)) chunks.delete(id);
    }
    const queries = Array.from({ length: 16 }, (): Query => {
      const start = Math.floor(random() * (text.length - 20));
      return {
        text: text.slice(start, start + 6 + Math.floor(random() * 10)).join(" "),
        limit: [1, 10, 50][Math.floor(random() * 3)]!,
        ...(random() < 0.25 ? { filter: { group: { in: [1] } } } : {}),
      };
    });
    const live = [...chunks.values()];
    compare(index, live, queries, "windows");
    compare(NamespaceIndex.restore(index.snapshot()), live, queries, "windows restored");
  });
}

Deno.test("BM25 ranks as a plain BM25 does after a search whose filter threw half way", () => {
  const random = mulberry32(12);
  const rank = zipf(random, 300);
  const chunks = Array.from({ length: 2000 }, (_, i) => randomChunk(rank, random, `c${i}`));
  const index = NamespaceIndex.build(chunks);
  let calls = 0;
  // A filter is the caller's code: here it fails on its 30th chunk, mid-window.
  const failing = {
    get group() {
      if (++calls === 30) throw new Error("filter failed");
      return { in: [0, 1, 2, 3] };
    },
  } as unknown as MetadataFilter;
  assert.throws(() => index.sparse("w0 w3 w7 w20", 50, failing));
  compare(
    index,
    chunks,
    [{ text: "w0 w3 w7 w20", limit: 50 }, { text: "w1 w40", limit: 10 }],
    "after",
  );
});
