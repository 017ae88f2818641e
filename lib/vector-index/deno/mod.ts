/**
 * The embedded index on Deno: everything `../mod.ts` exports, the file log
 * that keeps an index in a directory, and `openIndex`, which opens one there
 * (or in memory) with bulk loads prepared in Web Workers.
 * @module
 */
import type { BulkPiece } from "../bulk.ts";
import { EmbeddedIndex } from "../index.ts";
import { DEFAULT_NAMESPACE, type IndexedChunk, type VectorIndexHandle } from "../mod.ts";
import { FileIndexLog } from "./file-index-log.ts";
import { mapInWorkers } from "./worker-pool.ts";

export * from "../mod.ts";
export { FileIndexLog } from "./file-index-log.ts";
/** The Web Worker pool bulk loads are prepared in: a caller's own parsing can run there too. */
export { mapInWorkers, type PoolOptions, PoolWorkerError, serveInWorker } from "./worker-pool.ts";

/**
 * Opens the index kept in `dir` (created if missing; files `index.ckpt` and
 * `index.<n>.log`), or an in-memory one without `dir`. One process at a time
 * may hold a directory. Rejects with `IndexDamagedError` (file, byte, why)
 * when a file fails its checksum: nothing is overwritten.
 *
 * @example
 * ```ts
 * const index = await openIndex(); // in memory
 * await index.upsert([{ id: "x#0", text: "hello", vector: [0, 1], metadata: { doc_id: "x", chunk_index: 0 } }]);
 * (await index.query({ mode: "sparse", text: "hello" }))[0]?.id; // "x#0"
 * ```
 */
export async function openIndex(
  options: { dir?: string; checkpointMinBytes?: number } = {},
): Promise<VectorIndexHandle> {
  let log: FileIndexLog | undefined;
  if (options.dir !== undefined) {
    await Deno.mkdir(options.dir, { recursive: true });
    log = new FileIndexLog(`${options.dir}/index.log`);
  }
  const index = new EmbeddedIndex({
    ...(log ? { log } : {}),
    ...(options.checkpointMinBytes === undefined
      ? {}
      : { checkpointMinBytes: options.checkpointMinBytes }),
  });
  await index.open();
  const ns = (given: { namespace?: string } | undefined) => ({
    namespace: given?.namespace ?? DEFAULT_NAMESPACE,
  });
  return {
    upsert: (chunks, given) => index.upsert(chunks, ns(given)),
    delete: (docId, given) => index.deleteDocument(docId, ns(given)),
    query: (query) =>
      index.query({
        namespace: ns(query).namespace,
        mode: query.mode,
        text: query.text ?? "",
        vector: query.vector,
        topK: query.topK ?? 10,
        filter: query.filter,
      }),
    list: (given) =>
      index.listDocuments({
        namespace: ns(given).namespace,
        limit: given?.limit ?? 100,
        after: given?.after,
      }),
    bulkUpsert: (chunks, given) => {
      const { namespace } = ns(given);
      const pieces = mapInWorkers<{ chunks: IndexedChunk[]; namespace: string }, BulkPiece>(
        new URL("./prepare-worker.ts", import.meta.url),
        (async function* () {
          for await (const batch of chunks) yield { chunks: batch, namespace };
        })(),
        given?.workers === undefined ? {} : { workers: given.workers },
      );
      return index.bulkUpsert(pieces, {
        onDurable: (piece) => given?.onDurable?.(piece.chunks),
      });
    },
    status: () => index.status(),
    acknowledgeRecovered: () => index.acknowledgeRecovered(),
    close: async () => {
      await index.flush();
      log?.close();
    },
  };
}
