import { z } from "zod";
import { prepareChunk } from "../prepared.ts";
import type { IndexRecord } from "../record.ts";

/** The whole-index JSON snapshot sift wrote before the log (`.data/index.json`). */
const legacySchema = z.object({
  version: z.literal(1),
  namespaces: z.record(
    z.string(),
    z.array(z.object({
      id: z.string(),
      text: z.string(),
      vector: z.array(z.number()),
      metadata: z.looseObject({ doc_id: z.string(), chunk_index: z.number() }),
    })),
  ),
});

/**
 * Records holding what a legacy snapshot held, or undefined when there is no
 * such file. An unreadable one is an error: its data must not be dropped.
 */
export async function legacySnapshotRecords(path: string): Promise<IndexRecord[] | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const snapshot = legacySchema.parse(JSON.parse(text));
  return Object.entries(snapshot.namespaces).map(([namespace, chunks]) => ({
    namespace,
    remove: [],
    put: chunks.map(prepareChunk),
  }));
}
