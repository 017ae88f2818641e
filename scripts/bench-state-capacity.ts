/**
 * How many dense chunks the Workers Durable Object can hold under its 128 MB
 * isolate limit: the object keeps a `LocalIndex` in memory (loaded from
 * SQLite a page at a time), so its size is what the index holds per chunk.
 * Measured in V8 (workerd's engine) after a full GC: JS heap plus the typed
 * arrays' buffers, before and after `chunks` one-chunk documents of ARAGOG
 * text with 1,536-d vectors go in as the object puts them (pages of 500).
 * Run with `--v8-flags=--expose-gc`; prints one JSON line.
 */
import { LocalIndex } from "../adapters/vector-index/local.ts";
import { DENSE_WIDTH, denseEmbedder } from "./dense-embeddings.ts";
import { makeDocuments } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";

/** Workers' memory limit per isolate. */
const LIMIT_BYTES = 128 * 1024 * 1024;

export type StateCapacity = {
  width: number;
  measured_chunks: number;
  bytes_per_chunk: number;
  /** The empty index's isolate: what is left of 128 MB for chunks is counted from here. */
  baseline_mb: number;
  chunks_under_128_mb: number;
};

const gc = (globalThis as { gc?: () => void }).gc;
function held(): number {
  gc!();
  const { heapUsed, external } = Deno.memoryUsage();
  return heapUsed + external;
}

export async function measureStateCapacity(
  datasetDir: string,
  chunks = 10_000,
  width = DENSE_WIDTH,
): Promise<StateCapacity> {
  if (!gc) throw new Error("run with --v8-flags=--expose-gc");
  const { documents } = await readDataset(datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const next = makeDocuments(words, 5);
  const embed = denseEmbedder(width);
  const index = new LocalIndex();
  await index.count({ namespace: "default" });
  const before = held();
  for (let done = 0; done < chunks; done += 500) {
    const page = next(Math.min(500, chunks - done)).map((document) => ({
      id: `${document.id}#0`,
      text: document.text,
      vector: Array.from(embed(`${document.title}\n${document.text}`)),
      metadata: { doc_id: document.id, chunk_index: 0, title: document.title },
    }));
    await index.upsert(page, { namespace: "default" });
  }
  const perChunk = (held() - before) / chunks;
  return {
    width,
    measured_chunks: chunks,
    bytes_per_chunk: perChunk,
    baseline_mb: before / 1e6,
    chunks_under_128_mb: Math.floor((LIMIT_BYTES - before) / perChunk),
  };
}

if (import.meta.main) {
  const dataset = new URL("../../shared/datasets/aragog", import.meta.url).pathname;
  const width = Number(Deno.args[0] ?? DENSE_WIDTH);
  console.log(JSON.stringify(await measureStateCapacity(dataset, 10_000, width)));
}
