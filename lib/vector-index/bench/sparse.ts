/**
 * BM25 alone, in-process, on the synthetic corpus of issue #30: documents of
 * 60 tokens drawn from a Zipf law over 50k words, 5-term queries drawn from
 * the same law (so most queries hold a word found in most documents). The
 * namespace's `sparse()` beside a transcription of the exhaustive scoring it
 * replaced (fresh arrays of the namespace's size per query, document
 * frequencies recounted, every slot scanned, an object per matching chunk),
 * over the same postings in one run: the ratio is the figure, and both must
 * return the same top 10.
 *
 *   deno run -A lib/vector-index/bench/sparse.ts [--docs 1000000]
 */
import { mulberry32 } from "../random.ts";
import { analyze } from "../analyze.ts";
import { NamespaceIndex } from "../namespace.ts";
import type { PreparedChunk } from "../prepared.ts";
import type { NamespaceSnapshot } from "../snapshot.ts";
import { type Scored, TopK } from "../top-k.ts";
import { quantile } from "./quantile.ts";
import { zipf } from "../fixtures/zipf.ts";

export type SparseRow = {
  docs: number;
  words: number;
  tokens_per_doc: number;
  queries: number;
  exhaustive_ms: { p50: number; p95: number };
  pruned_ms: { p50: number; p95: number };
  /** Exhaustive p50 over pruned p50. */
  speedup_p50: number;
  /** Queries whose pruned top 10 is the exhaustive one's (ids in order). */
  same_top_10: number;
  /** Queries the pruning cut short. */
  pruned_queries: number;
};

/** Chunks sharing one dictionary of `w0 .. w{words-1}`, as a log record's chunks do. */
function zipfChunks(docs: number, words: number, tokens: number, seed: number): PreparedChunk[] {
  const rank = zipf(mulberry32(seed), words);
  const dictionary = Array.from({ length: words }, (_, i) => `w${i}`);
  const stamp = new Int32Array(words).fill(-1);
  const counts = new Uint16Array(words);
  const distinct = new Uint32Array(tokens);
  const vector = Float32Array.of(1);
  return Array.from({ length: docs }, (_, doc) => {
    let found = 0;
    for (let t = 0; t < tokens; t++) {
      const word = rank();
      if (stamp[word] !== doc) {
        stamp[word] = doc;
        counts[word] = 0;
        distinct[found++] = word;
      }
      counts[word]!++;
    }
    const numbers = distinct.slice(0, found);
    return {
      id: `doc-${doc}`,
      text: "",
      metadata: { doc_id: `doc-${doc}`, chunk_index: 0 },
      dimensions: 1,
      dims: Uint32Array.of(0),
      values: vector,
      terms: [],
      shared: { dictionary, numbers },
      counts: Uint16Array.from(numbers, (word) => counts[word]!),
      length: tokens,
    };
  });
}

/**
 * The exhaustive BM25 that `NamespaceIndex.sparse` was before #30, transcribed
 * over a snapshot's flat postings: the baseline of the ratio.
 */
export function exhaustive(
  snapshot: NamespaceSnapshot,
  termNumbers: Map<string, number>,
  alive: Uint8Array,
  totalLength: number,
  text: string,
  limit: number,
): Scored[] {
  const K1 = 1.2, B = 0.75;
  const live = snapshot.keys.length;
  const averageLength = totalLength / live || 1;
  const slotCount = live;
  const scores = new Float64Array(slotCount);
  const touched = new Uint8Array(slotCount);
  for (const term of new Set(analyze(text))) {
    const number = termNumbers.get(term);
    if (number === undefined) continue;
    const from = snapshot.termOffsets[number]!, to = snapshot.termOffsets[number + 1]!;
    const slots = snapshot.termSlots.subarray(from, to);
    const values = snapshot.termCounts.subarray(from, to);
    let documentFrequency = 0;
    for (let i = 0; i < slots.length; i++) documentFrequency += alive[slots[i]!]!;
    if (documentFrequency === 0) continue;
    const idf = Math.log(1 + (live - documentFrequency + 0.5) / (documentFrequency + 0.5));
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (!alive[slot]) continue;
      const frequency = values[i]!;
      const norm = K1 * (1 - B + B * (snapshot.lengths[slot]! / averageLength));
      scores[slot] = scores[slot]! + idf * (frequency * (K1 + 1)) / (frequency + norm);
      touched[slot] = 1;
    }
  }
  const top = new TopK(limit);
  for (let slot = 0; slot < slotCount; slot++) {
    if (touched[slot]) top.offer({ id: snapshot.keys.id(slot), score: scores[slot]! });
  }
  return top.sorted();
}

export function benchSparse(
  options: { docs?: number; words?: number; tokens?: number; queries?: number } = {},
): SparseRow {
  const { docs = 1_000_000, words = 50_000, tokens = 60, queries = 100 } = options;
  const started = performance.now();
  const index = NamespaceIndex.build(zipfChunks(docs, words, tokens, 30));
  const snapshot = index.snapshot();
  const termNumbers = new Map(snapshot.terms.map((term, i) => [term, i]));
  const alive = new Uint8Array(docs).fill(1);
  console.error(
    `sparse bench: ${docs} docs built in ${Math.round(performance.now() - started)} ms`,
  );
  const rank = zipf(mulberry32(31), words);
  const texts = Array.from(
    { length: queries },
    () => Array.from({ length: 5 }, () => `w${rank()}`).join(" "),
  );
  const oldTimes: number[] = [], newTimes: number[] = [];
  let same = 0;
  const prunedBefore = index.sparseStats().pruned;
  // Alternating, so both see the same machine load; one warm-up round first.
  for (let round = 0; round < 2; round++) {
    for (const text of texts) {
      let at = performance.now();
      const expected = exhaustive(snapshot, termNumbers, alive, docs * tokens, text, 10);
      const oldMs = performance.now() - at;
      at = performance.now();
      const got = index.sparse(text, 10);
      const newMs = performance.now() - at;
      if (round === 0) continue;
      oldTimes.push(oldMs);
      newTimes.push(newMs);
      if (got.map((hit) => hit.id).join() === expected.map((hit) => hit.id).join()) same++;
    }
  }
  const p50 = (times: number[]) => quantile(times, 0.5);
  return {
    docs,
    words,
    tokens_per_doc: tokens,
    queries,
    exhaustive_ms: { p50: p50(oldTimes), p95: quantile(oldTimes, 0.95) },
    pruned_ms: { p50: p50(newTimes), p95: quantile(newTimes, 0.95) },
    speedup_p50: p50(oldTimes) / p50(newTimes),
    same_top_10: same,
    pruned_queries: (index.sparseStats().pruned - prunedBefore) / 2,
  };
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--docs");
  const docs = at >= 0 ? Number(Deno.args[at + 1]) : 1_000_000;
  console.log(JSON.stringify(benchSparse({ docs }), null, 2));
}
