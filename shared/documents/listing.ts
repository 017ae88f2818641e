import { z } from "zod";

/*
 * The replies of `GET /v1/documents` and `GET /v1/documents/:id`: the embed
 * function answers with them, and every caller of the EMBED step (the MCP
 * resources) checks what comes back against them.
 */

const documentSummarySchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  source: z.string().optional().meta({ description: "The file it came from" }),
  chunks: z.number().int().meta({ description: "How many chunks it has" }),
  ingested_at: z.string().optional().meta({ description: "ISO 8601" }),
});

/** `GET /v1/documents`. */
export const documentListSchema = z.object({
  object: z.literal("list"),
  namespace: z.string(),
  data: z.array(documentSummarySchema),
  next_cursor: z.string().nullable().meta({
    description: "Pass as `cursor` for the next page; null on the last page",
  }),
});

/** `GET /v1/documents/:id`. */
export const documentSchema = documentSummarySchema.extend({
  namespace: z.string(),
  data: z.array(z.object({
    id: z.string().meta({ description: "`<doc id>#<n>`" }),
    text: z.string(),
    metadata: z.looseObject({
      doc_id: z.string(),
      chunk_index: z.number().int(),
      section: z.string().optional().meta({ description: "The heading path, `A > B`" }),
      page: z.number().int().optional(),
      page_end: z.number().int().optional(),
    }),
  })).meta({ description: "The chunks, in order (`chunks` is how many)" }),
});
