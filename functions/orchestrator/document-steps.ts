import type { z } from "zod";
import { documentListSchema, documentSchema } from "../../shared/documents/listing.ts";
import { callStep, StepError } from "../../shared/steps/call.ts";
import type { StepContext, StepTransport } from "../../shared/steps/transport.ts";

export type DocumentList = z.infer<typeof documentListSchema>;
export type StoredDocument = z.infer<typeof documentSchema>;

/** `GET /v1/documents` on the embed step: one page of a namespace's documents. */
export async function listDocumentsStep(
  transport: StepTransport,
  context: StepContext,
  options: { namespace: string; limit?: number; cursor?: string | undefined },
): Promise<DocumentList> {
  const query = new URLSearchParams({ namespace: options.namespace });
  if (options.limit !== undefined) query.set("limit", String(options.limit));
  if (options.cursor !== undefined) query.set("cursor", options.cursor);
  return await callStep(transport, `/v1/documents?${query}`, undefined, {
    schema: documentListSchema,
    context,
    timeoutMs: context.config.steps.timeoutMs,
  });
}

/** `GET /v1/documents/:id` on the embed step: the document and its chunks, or undefined (404). */
export async function readDocumentStep(
  transport: StepTransport,
  context: StepContext,
  options: { namespace: string; id: string },
): Promise<StoredDocument | undefined> {
  const path = `/v1/documents/${encodeURIComponent(options.id)}?` +
    new URLSearchParams({ namespace: options.namespace });
  try {
    return await callStep(transport, path, undefined, {
      schema: documentSchema,
      context,
      timeoutMs: context.config.steps.timeoutMs,
    });
  } catch (error) {
    if (error instanceof StepError && error.stepStatus === 404) return undefined;
    throw error;
  }
}
