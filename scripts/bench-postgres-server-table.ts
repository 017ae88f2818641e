/**
 * `deno task bench:postgres`'s rows as Markdown: printed by the bench, and
 * rendered into BENCHMARKS.md from bench.json by `deno task bench`.
 */
import type { SearchMode } from "../shared/vector/port.ts";

const MODES: SearchMode[] = ["dense", "sparse", "hybrid"];

export type ServerBenchRow = {
  index: "embedded" | "postgres";
  chunks: number;
  ingest_chunks_per_second: number;
  p50_ms: Record<SearchMode, number>;
  p95_ms: Record<SearchMode, number>;
  /**
   * Top-10 overlap with the embedded index's ranking (exact BM25; dense
   * measured at recall@10 1.000 against exact search), per question, averaged.
   * A hit scoring as much as the reference's 10th counts (copies tie).
   */
  overlap_at_10?: { dense: number; sparse: number };
};

/** A run kept in bench.json (`--record`), with how and when it was measured. */
export type PostgresServerBench = {
  date: string;
  command: string;
  /** What a reader should know: the server, its settings, the machine's load. */
  note: string;
  rows: ServerBenchRow[];
};

/** BENCHMARKS.md's section for a recorded run. */
export function postgresServerSection(bench: PostgresServerBench | undefined): string {
  if (!bench) return "";
  return `
## The index in a native Postgres

\`deno task bench:postgres\` (\`scripts/bench-postgres-server.ts\`) on ${bench.date}: the embedded
index and a Postgres with pgvector filled with the same chunks in one run (ARAGOG's, copied with
jitter up to each size, the offline model's 2,048-wide vectors, batches of 500), then p50/p95 of
in-process searches (top 5, ARAGOG's questions, per mode) and Postgres's top-10 overlap with the
embedded index per mode (exact BM25; dense measured at recall 1.000). ${bench.note}

\`\`\`text
${bench.command}
\`\`\`

${serverBenchTable(bench.rows)}

What is still short of the embedded index, and why: [docs/postgres.md](docs/postgres.md#speed-on-a-native-server).
`;
}

/** The rows as a Markdown table. */
export function serverBenchTable(rows: ServerBenchRow[]): string {
  const line = (row: ServerBenchRow) =>
    `| ${row.index} | ${row.chunks.toLocaleString("en-US")} | ${row.ingest_chunks_per_second} | ${
      MODES.map((mode) => `${row.p50_ms[mode]} / ${row.p95_ms[mode]}`).join(" | ")
    } | ${
      row.overlap_at_10 ? `${row.overlap_at_10.dense} / ${row.overlap_at_10.sparse}` : "(reference)"
    } |`;
  return [
    "| index | chunks | ingest chunks/s | dense p50 / p95 ms | sparse p50 / p95 ms | hybrid p50 / p95 ms | top-10 overlap dense / sparse |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(line),
  ].join("\n");
}
