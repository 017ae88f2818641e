/**
 * The library's part of sift's restart bench (`scripts/bench-restart.ts`):
 * an index of `size` chunks written as a clean stop leaves it (one
 * checkpoint, no log) from a pool of chunks analyzed once and reused under
 * ids and metadata of their own, in format 2 and in format 1 (before #30);
 * and the load alone in this process (`FileIndexLog.load` and
 * `NamespaceIndex.restore`), which the bench times beside a whole restart.
 */
import { checkpointFrames } from "../checkpoint.ts";
import { FileIndexLog } from "../deno/file-index-log.ts";
import { NamespaceIndex } from "../namespace.ts";
import { prepareChunk, type PreparedChunk } from "../prepared.ts";
import type { IndexedChunk } from "../types.ts";

/** Chunks normalized and analyzed once, for `writeIndex` to reuse. */
export function preparePool(chunks: readonly IndexedChunk[]): PreparedChunk[] {
  return chunks.map(prepareChunk);
}

/** `size` chunks over a pool of prepared ones, then one checkpoint (as a clean stop leaves). */
export async function writeIndex(
  dataDir: string,
  size: number,
  pool: PreparedChunk[],
  format1Dir: string,
): Promise<void> {
  // Ids and metadata as a real corpus has them: documents of 1 to 15 chunks, each chunk with its
  // own index, page and section, each document with its own title, url and source file.
  const chunks: PreparedChunk[] = [];
  for (let doc = 0; chunks.length < size; doc++) {
    const docId = `report-${(doc * 2654435761 >>> 0).toString(36)}-${doc}`;
    const pages = 1 + (doc * 7) % 15;
    for (let part = 0; part < pages && chunks.length < size; part++) {
      const chunk = pool[chunks.length % pool.length]!;
      chunks.push({
        ...chunk,
        id: `${docId}#${part}`,
        metadata: {
          ...chunk.metadata,
          doc_id: docId,
          chunk_index: part,
          title: `Annual report ${doc} of the ${doc % 311}th district`,
          url: `https://example.org/reports/${docId}.pdf`,
          source: `reports/${doc % 1000}/${docId}.pdf`,
          section: `Part ${part >> 2} > Chapter ${part}`,
          page: part * 2 + 1,
        },
      });
    }
  }
  const index = NamespaceIndex.build(chunks);
  const log = new FileIndexLog(`${dataDir}/index.log`);
  await log.load();
  await log.checkpoint(new Map([["default", index.view()]]));
  log.close();
  // The same index as the checkpoint format before (frames, read and checked whole), to compare.
  const file = await Deno.open(`${format1Dir}/index.ckpt`, { create: true, write: true });
  for (const frame of checkpointFrames(new Map([["default", index.view()]]), 1)) {
    let written = 0;
    while (written < frame.length) written += await file.write(frame.subarray(written));
  }
  file.close();
}

/** Milliseconds to load `dataDir`'s checkpoint and log and restore its namespaces, in this process. */
export async function loadMs(dataDir: string): Promise<number> {
  const started = performance.now();
  const log = new FileIndexLog(`${dataDir}/index.log`);
  const loaded = await log.load();
  for (const snapshot of loaded.checkpoint?.values() ?? []) NamespaceIndex.restore(snapshot);
  log.close();
  return performance.now() - started;
}
