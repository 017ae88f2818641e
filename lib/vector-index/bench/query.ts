/**
 * The embedded index's query path in-process, on ARAGOG-like text at the
 * sizes of #30: chunks of 250 consecutive words of the ARAGOG papers (as
 * `bench-index.ts` makes them), the first 40 ARAGOG questions as queries.
 * Per size: BM25 through `NamespaceIndex.sparse` beside the exhaustive BM25
 * it replaced (`exhaustive` of `bench-sparse.ts`, same postings, alternating
 * query by query so both see the same machine load), and whether both
 * return the same top-k scores; with `--dense`, 1,536-d clustered vectors
 * (`denseEmbedder`) and dense and hybrid times (each side's 50 candidates,
 * reciprocal rank fusion, the final 10 resolved). Sizes run in one process,
 * so growth figures are ratios from one run.
 *
 *   deno run -A scripts/bench-query.ts [--sizes 30000,300000] [--dense]
 */
import { denseEmbedder } from "../../../scripts/dense-embeddings.ts";
import { makeDocuments, quantile } from "../../../scripts/bench-index.ts";
import { readDataset } from "../../../scripts/retrieval-eval.ts";
import { exhaustive } from "./sparse.ts";
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

export async function benchQuery(
  sizes: number[],
  options: { dense?: boolean; datasetDir?: string } = {},
): Promise<QueryRow[]> {
  const { documents, questions } = await readDataset(
    options.datasetDir ?? "../shared/datasets/aragog",
  );
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const embed = options.dense ? denseEmbedder() : undefined;
  const texts = questions.slice(0, 40).map((question) => question.question);
  const vectors = texts.map((text) => embed && normalized(Array.from(embed(text))));
  const rows: QueryRow[] = [];
  for (const size of sizes) {
    const started = performance.now();
    const chunks = makeDocuments(words, 11)(size).map((document) =>
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

if (import.meta.main) {
  const at = Deno.args.indexOf("--sizes");
  const sizes = (at >= 0 ? Deno.args[at + 1]! : "30000,300000").split(",").map(Number);
  const rows = await benchQuery(sizes, { dense: Deno.args.includes("--dense") });
  const growth = rows.length > 1 && rows[0]!.hybrid_ms
    ? { hybrid_p50_growth: rows.at(-1)!.hybrid_ms!.p50 / rows[0]!.hybrid_ms!.p50 }
    : {};
  const sparseGrowth = rows.length > 1
    ? { sparse_p50_growth: rows.at(-1)!.sparse_ms.p50 / rows[0]!.sparse_ms.p50 }
    : {};
  console.log(JSON.stringify({ rows, ...sparseGrowth, ...growth }, null, 2));
}
