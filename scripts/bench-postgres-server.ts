/**
 * `deno task bench:postgres --url postgres://…`: any Postgres with pgvector
 * beside the embedded index, in one run. Per size: ingest chunks/s (batches of
 * 500 through each index's own `upsert`, `--writers` of them at once, as
 * concurrent requests would send them; the embedded index writes its log to
 * a temporary directory, as `deno task start` does), p50/p95 of in-process
 * `query()` calls per mode over ARAGOG's questions, and Postgres's top-10
 * overlap with the embedded index per mode (exact BM25; dense near-exact).
 * Both get the same chunks: ARAGOG's, with the offline model's vectors,
 * copied with jitter up to each size. It writes under its own tenant
 * (`sift-bench`) and deletes what it wrote at the end, unless `--keep`.
 */
import { FileIndexLog } from "../lib/vector-index/deno/mod.ts";
import { mulberry32 } from "../shared/random.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import type { IndexedChunk, SearchMode, VectorIndex } from "../shared/vector/port.ts";
import { PostgresIndex } from "../adapters/postgres/index.ts";
import { material } from "./bench-postgres.ts";
import {
  type PostgresServerBench,
  type ServerBenchRow,
  serverBenchTable,
} from "./bench-postgres-server-table.ts";
import { type Command, commandArgs, runCommand, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task bench:postgres --url postgres://USER:PASSWORD@HOST/DB [options]",
  about: `Ingest chunks/s and search p50/p95 (dense, sparse, hybrid) of the index in the Postgres at
--url beside the embedded index, in one run, at each size. Writes under tenant sift-bench and
deletes what it wrote at the end. Without --url, DATABASE_URL from the environment (deno task echoes
its command line, so a password given as --url shows on screen and in logs).`,
  flags: {
    url: {
      type: "string",
      value: "URL",
      help: "the database (its role needs no superuser)",
      default: "DATABASE_URL",
    },
    sizes: { type: "string", value: "N,N", help: "chunks at each step", default: "10000,20000" },
    questions: { type: "string", value: "N", help: "ARAGOG questions per mode", default: "100" },
    minutes: {
      type: "string",
      value: "N",
      help: "stop growing after this long; the size reached is reported",
      default: "10",
    },
    writers: {
      type: "string",
      value: "N",
      help: "batches of 500 chunks written at once, as concurrent requests would",
      default: "1",
    },
    keep: { type: "boolean", help: "leave the chunks in the database" },
    record: {
      type: "string",
      value: "NOTE",
      help:
        "keep the run in bench.json with this note (the server, its load) and write BENCHMARKS.md",
    },
    json: { type: "boolean", help: "print JSON instead of the table" },
  },
} satisfies Command;

const MODES: SearchMode[] = ["dense", "sparse", "hybrid"];
const WRITE_BATCH = 500;

/** Scores this close to the reference's 10th are a tie (floats summed in another order). */
const TIE = { dense: 1e-5, sparse: 1e-9 };

/** How much of `index`'s top 10 per question is the reference's, ties counted as in. */
async function overlapAt10(
  index: VectorIndex,
  reference: VectorIndex,
  namespace: string,
  questions: string[],
  vectors: number[][],
): Promise<{ dense: number; sparse: number }> {
  const overlap = { dense: 0, sparse: 0 };
  for (const mode of ["dense", "sparse"] as const) {
    let sum = 0;
    for (let i = 0; i < questions.length; i++) {
      const ask = (target: VectorIndex) =>
        target.query({ text: questions[i]!, vector: vectors[i]!, mode, topK: 10, namespace });
      const [got, want] = await Promise.all([ask(index), ask(reference)]);
      if (!want.length) {
        sum += got.length ? 0 : 1;
        continue;
      }
      const ids = new Set(want.map((hit) => hit.id));
      const tenth = want.at(-1)!.score;
      const right = got.filter((hit) =>
        ids.has(hit.id) || hit.score >= tenth - TIE[mode] * Math.max(1, Math.abs(tenth))
      );
      sum += right.length / want.length;
    }
    overlap[mode] = Math.round((sum / Math.max(1, questions.length)) * 1000) / 1000;
  }
  return overlap;
}

type Target = { name: ServerBenchRow["index"]; index: VectorIndex; ingestMs: number };

const round = (value: number) => Math.round(value * 10) / 10;

/** p50 and p95 of each mode over `questions`, one query at a time. */
async function latencies(
  index: VectorIndex,
  namespace: string,
  questions: string[],
  vectors: number[][],
) {
  const p50 = {} as Record<SearchMode, number>;
  const p95 = {} as Record<SearchMode, number>;
  for (const mode of MODES) {
    const ask = (i: number) =>
      index.query({ text: questions[i]!, vector: vectors[i]!, mode, topK: 5, namespace });
    for (let i = 0; i < Math.min(5, questions.length); i++) await ask(i); // warm-up
    const times: number[] = [];
    for (let i = 0; i < questions.length; i++) {
      const begun = performance.now();
      await ask(i);
      times.push(performance.now() - begun);
    }
    times.sort((a, b) => a - b);
    p50[mode] = round(times[Math.floor(times.length * 0.5)]!);
    p95[mode] = round(times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]!);
  }
  return { p50_ms: p50, p95_ms: p95 };
}

/** Both indexes grown to each size in turn, the same chunks written to each. */
export async function compareIndexes(
  options: {
    url: string;
    datasetDir: string;
    sizes: number[];
    questions: number;
    minutes: number;
    keep: boolean;
    /** Batches written at once (each its own document). */
    writers: number;
  },
): Promise<ServerBenchRow[]> {
  const { drafts, vectors, questions, questionVectors } = await material(
    options.datasetDir,
    options.questions,
  );
  const namespace = `sift-bench:run-${Date.now()}`;
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-postgres-" });
  const local = new LocalIndex({ log: new FileIndexLog(`${dataDir}/index.log`) });
  const postgres = new PostgresIndex({ url: options.url, timeoutMs: 600_000 });
  const targets: Target[] = [
    { name: "embedded", index: local, ingestMs: 0 },
    { name: "postgres", index: postgres, ingestMs: 0 },
  ];
  const random = mulberry32(7);
  const rows: ServerBenchRow[] = [];
  const begun = performance.now();
  let batches = 0;
  let written = 0;
  try {
    await local.open();
    for (const size of [...options.sizes].sort((a, b) => a - b)) {
      const before = written;
      for (const target of targets) target.ingestMs = 0;
      while (written < size && performance.now() - begun < options.minutes * 60_000) {
        // One document per batch, so the clean-up is one delete per batch; `writers` batches
        // at a time, written to each index at once (the embedded index takes them in turn).
        const round: IndexedChunk[][] = [];
        for (let w = 0; w < options.writers && written < size; w++) {
          const docId = `bench-${batches++}`;
          const batch: IndexedChunk[] = [];
          for (; batch.length < WRITE_BATCH && written < size; written++) {
            const at = written % drafts.length;
            const draft = drafts[at]!;
            batch.push({
              id: `${docId}#${batch.length}`,
              text: draft.text,
              // Jittered, so copies are near their original, not on top of it.
              vector: vectors[at]!.map((value) => value + (random() - 0.5) * 0.01),
              metadata: { ...draft.metadata, doc_id: docId, chunk_index: batch.length },
            });
          }
          round.push(batch);
        }
        for (const target of targets) {
          const started = performance.now();
          await Promise.all(round.map((batch) => target.index.upsert(batch, { namespace })));
          target.ingestMs += performance.now() - started;
        }
      }
      for (const target of targets) {
        rows.push({
          index: target.name,
          chunks: written,
          ingest_chunks_per_second: Math.round((written - before) / (target.ingestMs / 1000 || 1)),
          ...await latencies(target.index, namespace, questions, questionVectors),
          ...(target.index === local ? {} : {
            overlap_at_10: await overlapAt10(
              target.index,
              local,
              namespace,
              questions,
              questionVectors,
            ),
          }),
        });
        console.error(`${target.name} ${written}: ${JSON.stringify(rows.at(-1))}`);
      }
      if (written < size) break; // out of time: the size reached is reported as it is
    }
  } finally {
    if (!options.keep) {
      for (let batch = 0; batch < batches; batch++) {
        await postgres.deleteDocument(`bench-${batch}`, { namespace });
      }
      console.error(
        `deleted ${batches} documents; ${await postgres.count({ namespace })} chunks left`,
      );
    } else console.error(`kept ${written} chunks in namespace ${namespace}`);
    await postgres.close();
    await Deno.remove(dataDir, { recursive: true });
  }
  return rows;
}

if (import.meta.main) {
  const { values, positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  const url = values.url ?? Deno.env.get("DATABASE_URL");
  if (!url) usageMistake(COMMAND, "--url (or DATABASE_URL) is required");
  const sizes = (values.sizes ?? "10000,20000").split(",").map(Number);
  const questions = Number(values.questions ?? "100");
  const minutes = Number(values.minutes ?? "10");
  const writers = Number(values.writers ?? "1");
  for (
    const [name, numbers] of [["sizes", sizes], ["questions", [questions]], ["minutes", [
      minutes,
    ]], ["writers", [writers]]] as const
  ) {
    if (numbers.some((value) => !Number.isInteger(value) || value < 1)) {
      usageMistake(COMMAND, `--${name} takes whole numbers above 0`);
    }
  }
  await runCommand(async () => {
    const rows = await compareIndexes({
      url: url!,
      datasetDir: new URL("../../shared/datasets/aragog", import.meta.url).pathname,
      sizes,
      questions,
      minutes,
      writers,
      keep: values.keep ?? false,
    });
    console.log(values.json ? JSON.stringify(rows, null, 2) : serverBenchTable(rows));
    if (values.record !== undefined) {
      const { renderMarkdown } = await import("./bench.ts");
      const root = new URL("../", import.meta.url).pathname;
      const report = JSON.parse(await Deno.readTextFile(`${root}bench.json`));
      report.postgres_server = {
        date: new Date().toISOString().slice(0, 10),
        command: `deno task bench:postgres --url postgres://… --sizes ${sizes.join(",")} ` +
          `--questions ${questions} --writers ${writers} --minutes ${minutes}`,
        note: values.record,
        rows,
      } satisfies PostgresServerBench;
      await Deno.writeTextFile(`${root}bench.json`, JSON.stringify(report, null, 2) + "\n");
      await Deno.writeTextFile(`${root}BENCHMARKS.md`, renderMarkdown(report));
      console.error("recorded in bench.json and BENCHMARKS.md");
    }
  });
}
