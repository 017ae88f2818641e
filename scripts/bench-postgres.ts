/**
 * The index in Postgres beside the embedded index, in one run on this
 * machine, against a local pglite-server with pgvector:
 * - ARAGOG hit@5 and MRR@5 per mode, both indexes behind the same app and
 *   embedder (`POST /v1/search`, top 5);
 * - search p50 per mode at growing sizes, through `PostgresIndex.query`
 *   (ARAGOG chunks copied with jittered vectors up to each size).
 * PGlite is Postgres compiled to single-threaded WebAssembly: its latencies
 * are a floor for what a managed Postgres does, not that server's figures.
 *
 *   deno run -A scripts/bench-postgres.ts                  # 10k and 100k chunks
 *   deno run -A scripts/bench-postgres.ts --sizes 10000 --no-quality
 *   deno run -A scripts/bench-postgres.ts --minutes 20      # build for at most 20 minutes
 *   deno run -A scripts/bench-postgres.ts --db DIR          # go on in a kept database directory
 *
 * Building stops at the time budget (30 minutes by default): the size reached
 * is measured and reported as the row's `chunks`.
 */
import postgres from "postgres";
import { createSiftApp } from "../app.ts";
import { readConfig } from "../shared/config.ts";
import { chunkDocuments } from "../shared/documents/ingest.ts";
import { mulberry32 } from "../shared/random.ts";
import { Runtime } from "../compose/runtime.ts";
import type { IndexedChunk, SearchMode } from "../shared/vector/port.ts";
import { postgresPool } from "../adapters/postgres/from-env.ts";
import { PostgresIndex } from "../adapters/postgres/index.ts";
import { batchDocuments } from "./documents.ts";
import { startPgliteServer } from "./pglite-server.ts";
import { type ModeScore, postInProcess, readDataset, retrievalScores } from "./retrieval-eval.ts";

export type PostgresQualityRow = {
  mode: string;
  embedded: { hit_at_5: number; mrr_at_5: number };
  postgres: { hit_at_5: number; mrr_at_5: number };
  queries: number;
};
export type PostgresSpeedRow = {
  chunks: number;
  /** Chunks written per second while building to this size (batches of 500, one transaction each). */
  inserts_per_second: number;
  search_p50_ms: Record<SearchMode, number>;
  /** On disk per million chunks at this size (GB): rows with their TOAST, the HNSW and GIN indexes. */
  gb_per_million: { rows: number; hnsw: number; gin: number; total: number };
};
export type PostgresBench = { quality: PostgresQualityRow[]; speed: PostgresSpeedRow[] };

const MODES: SearchMode[] = ["dense", "sparse", "hybrid"];
const QUESTIONS = 40;
const WRITE_BATCH = 500;

async function scores(
  runtime: Runtime,
  env: Record<string, string>,
  dataset: Awaited<ReturnType<typeof readDataset>>,
): Promise<ModeScore[]> {
  const post = postInProcess(createSiftApp({ runtime }), env);
  for (const batch of batchDocuments(dataset.documents)) {
    await post("/v1/documents", { documents: batch, namespace: "bench" });
  }
  return await retrievalScores(post, dataset, readConfig(env).chunking, "bench");
}

/** ARAGOG per mode on the embedded index and on Postgres, the same app and embedder. */
async function quality(databaseUrl: string, datasetDir: string): Promise<PostgresQualityRow[]> {
  const dataset = await readDataset(datasetDir);
  const embedded = await scores(new Runtime(), { DEMO_CORPUS: "false" }, dataset);
  const postgres = await scores(
    new Runtime({ postgres: postgresPool() }),
    { DEMO_CORPUS: "false", DATABASE_URL: databaseUrl, DATABASE_TIMEOUT_MS: "600000" },
    dataset,
  );
  return MODES.map((mode) => {
    const ours = postgres.find((row) => row.mode === mode)!;
    const theirs = embedded.find((row) => row.mode === mode)!;
    return {
      mode,
      embedded: { hit_at_5: theirs.hit_at_5, mrr_at_5: theirs.mrr_at_5 },
      postgres: { hit_at_5: ours.hit_at_5, mrr_at_5: ours.mrr_at_5 },
      queries: ours.queries,
    };
  });
}

/** ARAGOG's chunks with the offline model's vectors, and its first `count` questions embedded. */
export async function material(datasetDir: string, count = QUESTIONS) {
  const dataset = await readDataset(datasetDir);
  const config = readConfig({ DEMO_CORPUS: "false" });
  const { embedder } = new Runtime().deps(config);
  const drafts = (await chunkDocuments(dataset.documents, config.chunking))
    .flatMap((document) => document.chunks);
  const vectors = await embedder.embed(drafts.map((draft) => draft.text));
  const questions = dataset.questions.slice(0, count).map((question) => question.question);
  const questionVectors = await embedder.embed(questions);
  return { drafts, vectors, questions, questionVectors };
}

async function speed(
  databaseUrl: string,
  datasetDir: string,
  sizes: number[],
  budgetMs: number,
): Promise<PostgresSpeedRow[]> {
  const { drafts, vectors, questions, questionVectors } = await material(datasetDir);
  const index = new PostgresIndex({ url: databaseUrl, timeoutMs: 600_000 });
  const random = mulberry32(7);
  const rows: PostgresSpeedRow[] = [];
  const begun = performance.now();
  try {
    // A database kept from an earlier run (--db) goes on from what it holds.
    let written = await index.count({ namespace: "speed" });
    for (const size of [...sizes].sort((a, b) => a - b)) {
      const started = performance.now();
      const before = written;
      while (written < size && performance.now() - begun < budgetMs) {
        const batch: IndexedChunk[] = [];
        for (; batch.length < WRITE_BATCH && written < size; written++) {
          const at = written % drafts.length;
          const draft = drafts[at]!;
          const docId = `copy${Math.floor(written / drafts.length)}-${draft.metadata.doc_id}`;
          batch.push({
            id: `${docId}#${draft.metadata.chunk_index}`,
            text: draft.text,
            // Jittered, so copies are near their original, not on top of it.
            vector: vectors[at]!.map((value) => value + (random() - 0.5) * 0.01),
            metadata: { ...draft.metadata, doc_id: docId },
          });
        }
        await index.upsert(batch, { namespace: "speed" });
      }
      const insertsPerSecond = (written - before) / ((performance.now() - started) / 1000 || 1);
      const p50 = {} as Record<SearchMode, number>;
      for (const mode of MODES) {
        const times: number[] = [];
        for (const [i, text] of questions.entries()) {
          const begun = performance.now();
          await index.query({
            text,
            vector: questionVectors[i]!,
            mode,
            topK: 5,
            namespace: "speed",
          });
          times.push(performance.now() - begun);
        }
        times.sort((a, b) => a - b);
        p50[mode] = Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
      }
      rows.push({
        chunks: written,
        inserts_per_second: Math.round(insertsPerSecond),
        search_p50_ms: p50,
        gb_per_million: await diskSizes(databaseUrl, written, vectors[0]!.length),
      });
      console.error(`postgres ${size}: ${JSON.stringify(rows.at(-1))}`);
      // Out of time: the size reached is measured and reported as it is.
      if (written < size) break;
    }
  } finally {
    await index.close();
  }
  return rows;
}

/** What the chunks take on disk, scaled to a million. */
async function diskSizes(databaseUrl: string, chunks: number, width: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`SELECT
      pg_total_relation_size('sift_chunks') AS total,
      pg_relation_size(${`sift_chunks_hnsw_${width}`}) AS hnsw,
      pg_relation_size('sift_chunks_terms') AS gin`;
    const perMillion = (bytes: unknown) => Math.round(Number(bytes) / chunks * 1e6 / 1e8) / 10;
    const total = perMillion(row!.total);
    const hnsw = perMillion(row!.hnsw);
    const gin = perMillion(row!.gin);
    return { rows: Math.round((total - hnsw - gin) * 10) / 10, hnsw, gin, total };
  } finally {
    await sql.end();
  }
}

/** Both parts on one fresh pglite-server. */
export async function benchPostgres(
  datasetDir: string,
  sizes: number[],
  options: { quality?: boolean; budgetMinutes?: number; dir?: string } = {},
): Promise<PostgresBench> {
  await using db = await startPgliteServer(options.dir ? { dir: options.dir } : {});
  const budgetMs = (options.budgetMinutes ?? 30) * 60_000;
  return {
    quality: options.quality === false ? [] : await quality(db.url, datasetDir),
    speed: sizes.length ? await speed(db.url, datasetDir, sizes, budgetMs) : [],
  };
}

/** The section BENCHMARKS.md shows. */
export function postgresSection(bench: PostgresBench | undefined): string {
  if (!bench) return "";
  const fixed = (value: number) => value.toFixed(3);
  const quality = bench.quality.map((row) =>
    `| ${row.mode} | ${row.embedded.hit_at_5}/${row.queries} | ${row.postgres.hit_at_5}/${row.queries} | ${
      fixed(row.embedded.mrr_at_5)
    } | ${fixed(row.postgres.mrr_at_5)} |`
  );
  const speedRows = bench.speed.map((row) =>
    `| ${
      row.chunks.toLocaleString("en-US")
    } | ${row.inserts_per_second} | ${row.search_p50_ms.dense} | ${row.search_p50_ms.sparse} | ${row.search_p50_ms.hybrid} |`
  );
  return `
## The index in Postgres (\`DATABASE_URL\`)

ARAGOG, top 5, the same app, chunks and offline embedder on both indexes (\`scripts/bench-postgres.ts\`):

| mode | hit@5 embedded | hit@5 Postgres | MRR@5 embedded | MRR@5 Postgres |
|---|---|---|---|---|
${quality.join("\n")}

Search p50 through \`PostgresIndex.query\` (${QUESTIONS} ARAGOG questions, top 5) on a local
pglite-server. PGlite is Postgres compiled to single-threaded WebAssembly, one transaction at a
time: these figures are a floor, not what a managed Postgres (Neon, Supabase, RDS) does.

**GB per million chunks**: on disk at that size, scaled: rows (text, metadata, 2,048-d vector,
tsvector) + HNSW (halfvec) + GIN.

| chunks | inserts/s | dense p50 ms | sparse p50 ms | hybrid p50 ms | GB per million chunks |
|---|---|---|---|---|---|
${speedRows.join("\n")}
`;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--sizes");
  const sizes = (at >= 0 ? Deno.args[at + 1]! : "10000,100000").split(",").filter(Boolean)
    .map(Number);
  const dataset = new URL("../../shared/datasets/aragog", import.meta.url).pathname;
  const quality = !Deno.args.includes("--no-quality");
  const minutes = Deno.args.indexOf("--minutes");
  const dir = Deno.args.indexOf("--db");
  console.log(JSON.stringify(
    await benchPostgres(dataset, sizes, {
      quality,
      ...(minutes >= 0 ? { budgetMinutes: Number(Deno.args[minutes + 1]) } : {}),
      ...(dir >= 0 ? { dir: Deno.args[dir + 1]! } : {}),
    }),
    null,
    2,
  ));
}
