import { z } from "zod";
import { callStep, StepError } from "../../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import { listDocumentsStep, readDocumentStep } from "../document-steps.ts";

/** How many ids one listing reads at most (pages of 100): the bound of a tenant's records. */
export const MAX_RECORDS = 10_000;

const ingestReplySchema = z.object({ namespace: z.string() });
const deleteReplySchema = z.object({ deleted_chunks: z.number().int() });

/**
 * Small JSON records (a file's name and size, a vector store's settings)
 * kept as one-chunk documents in a reserved namespace of the tenant's index,
 * through the embed step like every other write: as durable as the index,
 * scoped to the tenant by the same one place, on every index adapter. The
 * record is the chunk's `record` metadata, its text the id.
 */
export class RecordStore<T> {
  constructor(
    private readonly context: StepContext,
    private readonly namespace: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  private get embed() {
    return resolveStep("EMBED", this.context);
  }

  private options<S>(schema: z.ZodType<S>) {
    return { schema, context: this.context, timeoutMs: this.context.config.steps.timeoutMs };
  }

  async put(id: string, record: T): Promise<void> {
    await callStep(this.embed, "/v1/documents", {
      namespace: this.namespace,
      documents: [{ id, text: id, metadata: { record: JSON.stringify(record) } }],
    }, this.options(ingestReplySchema));
  }

  async get(id: string): Promise<T | undefined> {
    const document = await readDocumentStep(this.embed, this.context, {
      namespace: this.namespace,
      id,
    });
    const stored = document?.data[0]?.metadata.record;
    if (typeof stored !== "string") return undefined;
    let value: unknown;
    try {
      value = JSON.parse(stored);
    } catch {
      return undefined; // Not a record of ours: a document someone wrote into the namespace.
    }
    const parsed = this.schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }

  /** Whether there was one to delete. */
  async delete(id: string): Promise<boolean> {
    const path = `/v1/documents/${encodeURIComponent(id)}?` +
      new URLSearchParams({ namespace: this.namespace });
    try {
      await callStep(this.embed, path, undefined, {
        ...this.options(deleteReplySchema),
        method: "DELETE",
      });
      return true;
    } catch (error) {
      if (error instanceof StepError && error.stepStatus === 404) return false;
      throw error;
    }
  }

  /** Every id, in id order (for our ids, creation order). */
  async ids(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listDocumentsStep(this.embed, this.context, {
        namespace: this.namespace,
        limit: 100,
        cursor,
      });
      ids.push(...page.data.map((summary) => summary.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && ids.length < MAX_RECORDS);
    return ids;
  }
}
