import { z } from "zod";
import { metadataFilterSchema, searchModeSchema } from "../../shared/schemas.ts";

/*
 * The state object's own protocol: what a Worker may send it, checked at its
 * door, and how a stored row reads back.
 */

const namespace = z.string().min(1);
const metadata = z.looseObject({ doc_id: z.string(), chunk_index: z.number() });
const chunk = z.object({
  id: z.string().min(1),
  text: z.string(),
  vector: z.array(z.number()),
  metadata,
});
export const bodies = {
  upsert: z.object({ namespace, chunks: z.array(chunk) }),
  replace: z.object({ namespace, docIds: z.array(z.string()), chunks: z.array(chunk) }),
  query: z.object({
    query: z.object({
      text: z.string(),
      vector: z.array(z.number()).exactOptional(),
      mode: searchModeSchema,
      topK: z.number().int(),
      filter: metadataFilterSchema.exactOptional(),
      namespace,
    }),
  }),
  document: z.object({ namespace, docId: z.string() }),
  documents: z.object({
    namespace,
    limit: z.number().int().min(1),
    cursor: z.string().exactOptional(),
  }),
  namespace: z.object({ namespace }),
  key: z.object({ key: z.string() }),
  set: z.object({ key: z.string(), value: z.json(), ttlSeconds: z.number().exactOptional() }),
  /** Several records written in one transaction; `ifAbsent` names one that must not exist yet. */
  records: z.object({
    records: z.array(
      z.object({ key: z.string(), value: z.json(), ttlSeconds: z.number().exactOptional() }),
    ).min(1).max(10),
    ifAbsent: z.string().exactOptional(),
  }),
};
export const storedChunk = z.object({
  namespace: z.string(),
  id: z.string(),
  text: z.string(),
  metadata: z.string().transform((text) => metadata.parse(JSON.parse(text))),
  vector: z.instanceof(ArrayBuffer).transform((blob) => Array.from(new Float32Array(blob))),
});

/** The operations a Worker sends as `POST https://state/<op>` with a JSON body. */
export type StateOp =
  | "index.upsert"
  | "index.replaceDocuments"
  | "index.query"
  | "index.deleteDocument"
  | "index.count"
  | "index.listDocuments"
  | "index.getDocument"
  | "cache.get"
  | "cache.set"
  | "cache.delete"
  | "records.get"
  | "records.put";
