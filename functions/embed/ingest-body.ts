import type { Context } from "hono";
import type { z } from "zod";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { ingestDocuments } from "../../shared/documents/ingest.ts";
import type { ingestSchema } from "./ingest-schema.ts";

/** Chunks, embeds and stores a validated `/v1/documents` body (also what a pushed webhook carries). */
export async function ingestBody(c: Context<AppEnv>, body: z.infer<typeof ingestSchema>) {
  const defaults = c.var.config.chunking;
  const chunking = {
    size: body.chunking?.size ?? defaults.size,
    overlap: body.chunking?.overlap ??
      Math.min(defaults.overlap, (body.chunking?.size ?? defaults.size) - 1),
  };
  if (chunking.overlap >= chunking.size) {
    throw new InvalidRequestError("chunking.overlap: must be smaller than chunking.size");
  }
  return await ingestDocuments(
    c.var.deps,
    { documents: body.documents, namespace: body.namespace, chunking },
    c.req.raw.signal,
  );
}
