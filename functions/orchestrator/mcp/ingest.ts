import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
import { z } from "zod";
import { LIMITS } from "../../../shared/limits.ts";
import { documentIdSchema, namespaceSchema } from "../../../shared/schemas.ts";
import { callStep } from "../../../shared/steps/call.ts";
import { resolveStep } from "../../../shared/steps/transport.ts";
import { runTool } from "./cancel.ts";
import { InvalidRequestError } from "../../../shared/errors.ts";
import type { McpContext } from "./context.ts";
import { toolResult } from "./results.ts";
import { resourceUri } from "./uri.ts";

/** Base64 of the largest upload a tool call may carry (the ingest body limit). */
const MAX_FILE_BASE64_CHARS = Math.ceil(LIMITS.ingestBodyBytes / 3) * 4;

/**
 * `POST /v1/documents`' fields. The embed function owns the full schema (dates
 * in the future, chunking bounds) and checks every call again; its 400 names
 * the field, and comes back as the tool's error.
 */
const ingestInput = {
  documents: z.array(
    z.strictObject({
      id: documentIdSchema.optional().meta({
        description: "Ingesting an id again replaces its chunks",
      }),
      text: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" })
        .max(LIMITS.documentChars, {
          error: `must be at most ${LIMITS.documentChars} characters`,
        }),
      title: z.string().max(1000).optional(),
      url: z.string().max(2000).optional(),
      published: z.string().max(100).optional(),
      authors: z.union([z.string().max(2000), z.array(z.string().max(200)).max(100)]).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    }),
    { error: "must be an array of documents" },
  ).min(1, { error: "must hold at least one document" }).max(LIMITS.documentsPerIngest, {
    error: `must hold at most ${LIMITS.documentsPerIngest} documents per call`,
  }).optional().meta({ description: "Documents as text; or send files instead" }),
  files: z.array(
    z.strictObject({
      name: z.string().min(1).max(255).meta({
        description: "The file's name, kept as the document's source (paper.pdf)",
      }),
      id: documentIdSchema.optional().meta({
        description: "The document's id (a file's path in a folder: alpha/README); without " +
          "it, the name without its extension (paper)",
      }),
      content_base64: z.string().min(1).max(MAX_FILE_BASE64_CHARS).regex(/^[A-Za-z0-9+/]*={0,2}$/, {
        error: "must be base64",
      }).meta({ description: "The file's bytes, base64" }),
    }),
  ).min(1, { error: "must hold at least one file" }).max(LIMITS.documentsPerIngest).optional()
    .meta({
      description: "Files as they are (PDF, DOCX, HTML, Markdown, text), each as its name and " +
        "base64 bytes: sift tells the type from the bytes and refuses what it cannot read",
    }),
  namespace: namespaceSchema,
};

/** The files as the `multipart/form-data` upload `POST /v1/documents` takes. */
function uploadForm(
  files: readonly { name: string; id?: string | undefined; content_base64: string }[],
  namespace: string,
): FormData {
  const form = new FormData();
  for (const file of files) {
    // An id field names the file part after it.
    if (file.id !== undefined) form.append("id", file.id);
    const binary = atob(file.content_base64);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    form.append("file", new Blob([bytes]), file.name);
  }
  form.append("namespace", namespace);
  return form;
}

const ingestReplySchema = z.object({
  namespace: z.string(),
  documents: z.array(z.object({ id: z.string(), chunks: z.number().int() })),
  chunks: z.number().int(),
});

const ingestOutput = {
  namespace: z.string(),
  documents: z.array(z.object({ id: z.string(), chunks: z.number().int(), uri: z.string() })),
  chunks: z.number().int(),
};

/**
 * `ingest`: documents into a namespace through the embed function. A write,
 * but not a destructive one: ingesting an id again replaces its chunks, so
 * the same call twice leaves the same index (idempotent).
 */
export function registerIngest(server: McpServer, context: McpContext): void {
  server.registerTool("ingest", {
    title: "Ingest documents",
    description: "Adds documents to a namespace: chunked, embedded and indexed. A document " +
      "whose id exists already has its chunks replaced. Send `documents` as text, or `files` " +
      "(name and base64 bytes: PDF, DOCX, HTML, Markdown, text), one or the other. Two " +
      "documents or files with one id are refused, naming both: give each file its own `id` " +
      "(its path, alpha/README) when names repeat.",
    inputSchema: z.strictObject(ingestInput),
    outputSchema: ingestOutput,
    annotations: {
      title: "Ingest documents",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, (args, extra) =>
    runTool("ingest", context, extra, async (steps) => {
      const { files, ...json } = args;
      if ((files === undefined) === (json.documents === undefined)) {
        throw new InvalidRequestError("send documents or files, one of the two");
      }
      const body = files ? uploadForm(files, args.namespace) : json;
      const reply = await callStep(resolveStep("EMBED", steps), "/v1/documents", body, {
        schema: ingestReplySchema,
        context: steps,
        timeoutMs: steps.config.steps.timeoutMs,
      });
      const documents = reply.documents.map((document) => ({
        ...document,
        uri: resourceUri(reply.namespace, document.id),
      }));
      return toolResult(
        { ...reply, documents },
        `Ingested ${documents.length} document(s), ${reply.chunks} chunk(s), into ` +
          `${reply.namespace}:\n${
            documents.map((d) => `${d.uri} (${d.chunks} chunks)`).join("\n")
          }`,
      );
    }));
}
