/**
 * sift's embedded index beside a peer embedded engine, `@orama/orama`, on
 * the same texts and the same vectors (the hashed lexical embedding, 2048
 * wide), in-process: insert rate, search p50 per mode, and the heap each
 * holds after a full GC. Each engine and size runs in a process of its own
 * (`deno run --v8-flags=--expose-gc scripts/bench-peer.ts <engine> <chunks>`),
 * so one's garbage never counts against the other.
 */
import { create, insertMultiple, search } from "@orama/orama";
import { hashedEmbedding } from "../shared/embeddings/hashed.ts";
import { mulberry32 } from "../shared/random.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import { searchableText } from "../shared/vector/port.ts";
import { readDataset } from "./retrieval-eval.ts";

export type PeerRow = {
  engine: "sift" | "orama";
  chunks: number;
  insert_per_second: number;
  search_p50_ms: Record<"dense" | "sparse" | "hybrid", number>;
  heap_mb: number;
};

const DATASET = new URL("../../shared/datasets/aragog", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;
const DIMENSIONS = 2048;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The JS heap plus memory outside it (typed arrays' buffers), after a full GC. */
function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, external } = Deno.memoryUsage();
  return (heapUsed + external) / 1e6;
}

async function corpus(count: number) {
  const { documents, questions } = await readDataset(DATASET);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const random = mulberry32(11);
  const chunks = Array.from({ length: count }, (_, i) => {
    const start = Math.floor(random() * (words.length - 260));
    const metadata = { doc_id: `synthetic-${i}`, chunk_index: 0, title: `Synthetic ${i % 97}` };
    const text = words.slice(start, start + 250).join(" ");
    return { id: `synthetic-${i}#0`, text, metadata };
  });
  const queries = questions.slice(0, 40).map((question) => ({
    text: question.question,
    vector: hashedEmbedding(question.question, DIMENSIONS),
  }));
  return { chunks, queries };
}

async function timeSearches(queries: unknown[], run: (query: never) => Promise<unknown> | unknown) {
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await run(query as never);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function runEngine(engine: PeerRow["engine"], count: number): Promise<PeerRow> {
  const { chunks, queries } = await corpus(count);
  const vectors = chunks.map((chunk) => hashedEmbedding(searchableText(chunk), DIMENSIONS));
  const before = heapMb();
  const started = performance.now();
  const modes = ["dense", "sparse", "hybrid"] as const;
  const search_p50_ms = {} as PeerRow["search_p50_ms"];
  let heap: number;
  if (engine === "sift") {
    const index = new LocalIndex();
    for (let at = 0; at < chunks.length; at += 100) {
      await index.upsert(
        chunks.slice(at, at + 100).map((chunk, i) => ({ ...chunk, vector: vectors[at + i]! })),
        { namespace: "default" },
      );
    }
    const seconds = (performance.now() - started) / 1000;
    heap = heapMb() - before;
    for (const mode of modes) {
      search_p50_ms[mode] = await timeSearches(
        queries,
        (query: { text: string; vector: number[] }) =>
          index.query({ ...query, mode, topK: 10, namespace: "default" }),
      );
    }
    return {
      engine,
      chunks: count,
      insert_per_second: count / seconds,
      search_p50_ms,
      heap_mb: heap,
    };
  }
  const db = create({ schema: { text: "string", embedding: `vector[${DIMENSIONS}]` } as const });
  await insertMultiple(
    db,
    chunks.map((chunk, i) => ({
      id: chunk.id,
      text: searchableText(chunk),
      embedding: vectors[i]!,
    })),
    500,
  );
  const seconds = (performance.now() - started) / 1000;
  heap = heapMb() - before;
  const vector = (value: number[]) => ({ value, property: "embedding" });
  search_p50_ms.dense = await timeSearches(
    queries,
    (query: { vector: number[] }) =>
      search(db, { mode: "vector", vector: vector(query.vector), similarity: 0.01, limit: 10 }),
  );
  search_p50_ms.sparse = await timeSearches(
    queries,
    (query: { text: string }) => search(db, { term: query.text, limit: 10 }),
  );
  search_p50_ms.hybrid = await timeSearches(
    queries,
    (query: { text: string; vector: number[] }) =>
      search(db, {
        mode: "hybrid",
        term: query.text,
        vector: vector(query.vector),
        similarity: 0.01,
        limit: 10,
      }),
  );
  return {
    engine,
    chunks: count,
    insert_per_second: count / seconds,
    search_p50_ms,
    heap_mb: heap,
  };
}

/** Both engines at each size, each in its own process; a size an engine cannot finish is skipped. */
export async function benchPeers(sizes: number[]): Promise<PeerRow[]> {
  const rows: PeerRow[] = [];
  for (const size of sizes) {
    for (const engine of ["sift", "orama"] as const) {
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--v8-flags=--expose-gc",
          "scripts/bench-peer.ts",
          engine,
          String(size),
        ],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (code !== 0) {
        console.error(
          `${engine} at ${size}: failed\n${new TextDecoder().decode(stderr).slice(-500)}`,
        );
        continue;
      }
      const row = JSON.parse(
        new TextDecoder().decode(stdout).trim().split("\n").at(-1)!,
      ) as PeerRow;
      console.error(`peer ${engine} at ${size}: ${JSON.stringify(row)}`);
      rows.push(row);
    }
  }
  return rows;
}

if (import.meta.main) {
  const [engine, count] = Deno.args;
  if (engine !== "sift" && engine !== "orama") {
    throw new Error("usage: bench-peer.ts sift|orama <chunks>");
  }
  console.log(JSON.stringify(await runEngine(engine, Number(count))));
}
