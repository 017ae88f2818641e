/**
 * The embedded index's query path in-process, on the corpus the caller gives
 * (sift's `scripts/bench-query.ts` gives ARAGOG-like text at the sizes of
 * #30: chunks of 250 consecutive words of the ARAGOG papers, the first 40
 * ARAGOG questions as queries). Per size: BM25 through
 * `NamespaceIndex.sparse` beside the exhaustive BM25 it replaced
 * (`exhaustive` of `sparse.ts`, same postings, alternating query by query so
 * both see the same machine load), and whether both return the same top-k
 * scores; given `embed`, dense and hybrid times too (each side's 50
 * candidates, reciprocal rank fusion, the final 10 resolved). Sizes run in
 * one process, so growth figures are ratios from one run.
 */
import { exhaustive } from "./sparse.ts";
import { quantile } from "./quantile.ts";
import { NamespaceIndex } from "../namespace.ts";
import { normalized, prepareChunk } from "../prepared.ts";
import { reciprocalRankFusion } from "../rrf.ts";

export type QueryRow = {
  chunks: number;
  queries: number;
  sparse_exhaustive_ms: { p50: number; p95: number };
  sparse_ms: { p50: number; p95: number };
  /** Exhaustive p50 over pruned p50, at top 50 (what a hybrid asks). */
  sparse_speedup_p50: number;
  /** Queries whose top-50 scores equal the exhaustive ones rank by rank (to 1e-9). */
  same_top_50: number;
  dense_ms?: { p50: number; p95: number };
  hybrid_ms?: { p50: number; p95: number };
};

const p50p95 = (times: number[]) => ({ p50: quantile(times, 0.5), p95: quantile(times, 0.95) });

/** What the bench searches: `size` documents (one chunk each), the queries, and dense vectors if any. */
export type QueryCorpus = {
  documents: (size: number) => { id: string; title: string; text: string }[];
  queries: string[];
  embed?: ((text: string) => Float32Array) | undefined;
};

export function benchQuery(sizes: number[], corpus: QueryCorpus): QueryRow[] {
  const { embed } = corpus;
  const texts = corpus.queries;
  const vectors = texts.map((text) => embed && normalized(Array.from(embed(text))));
  const rows: QueryRow[] = [];
  for (const size of sizes) {
    const started = performance.now();
    const chunks = corpus.documents(size).map((document) =>
      prepareChunk({
        id: `${document.id}#0`,
        text: document.text,
        vector: embed ? Array.from(embed(`${document.title}\n${document.text}`)) : [1, 0, 0],
        metadata: { doc_id: document.id, chunk_index: 0 },
      })
    );
    const index = NamespaceIndex.build(chunks);
    chunks.length = 0;
    console.error(
      `query bench: ${size} chunks built in ${Math.round(performance.now() - started)} ms`,
    );
    const snapshot = index.snapshot();
    const termNumbers = new Map(snapshot.terms.map((term, i) => [term, i]));
    const alive = new Uint8Array(size).fill(1);
    const totalLength = snapshot.lengths.reduce((sum, length) => sum + length, 0);
    const oldTimes: number[] = [], newTimes: number[] = [];
    const denseTimes: number[] = [], hybridTimes: number[] = [];
    let same = 0;
    // One warm-up round, then one measured.
    for (let round = 0; round < 2; round++) {
      texts.forEach((text, q) => {
        let at = performance.now();
        const expected = exhaustive(snapshot, termNumbers, alive, totalLength, text, 50);
        const oldMs = performance.now() - at;
        at = performance.now();
        const got = index.sparse(text, 50);
        const newMs = performance.now() - at;
        const vector = vectors[q];
        let denseMs = 0, hybridMs = 0;
        if (vector) {
          at = performance.now();
          index.dense(vector, 10);
          denseMs = performance.now() - at;
          at = performance.now();
          const dense = index.dense(vector, 50).map((hit) => hit.id);
          const sparse = index.sparse(text, 50).map((hit) => hit.id);
          for (const { id } of reciprocalRankFusion([dense, sparse]).slice(0, 10)) index.hit(id);
          hybridMs = performance.now() - at;
        }
        if (round === 0) return;
        oldTimes.push(oldMs);
        newTimes.push(newMs);
        denseTimes.push(denseMs);
        hybridTimes.push(hybridMs);
        const equal = got.length === expected.length &&
          got.every((hit, i) => Math.abs(hit.score - expected[i]!.score) < 1e-9);
        if (equal) same++;
      });
    }
    rows.push({
      chunks: size,
      queries: texts.length,
      sparse_exhaustive_ms: p50p95(oldTimes),
      sparse_ms: p50p95(newTimes),
      sparse_speedup_p50: quantile(oldTimes, 0.5) / quantile(newTimes, 0.5),
      same_top_50: same,
      ...(embed ? { dense_ms: p50p95(denseTimes), hybrid_ms: p50p95(hybridTimes) } : {}),
    });
  }
  return rows;
}
