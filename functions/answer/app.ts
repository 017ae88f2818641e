import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { eventStream } from "../../shared/http/sse.ts";
import { readJson } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { inlineDocumentSchema, querySchema } from "../../shared/schemas.ts";
import { citedFromMetadata } from "../../shared/documents/citation-label.ts";
import { type AnswerDocument, type AnswerResult, generateAnswer, streamAnswer } from "./answer.ts";
import { structuredAnswer } from "./structured.ts";
import { answerFormatSchema } from "../../shared/structured-output/format.ts";
import { describe, eventContent, jsonContent } from "../../shared/http/openapi.ts";
import {
  answerDeltaSchema,
  answerEndSchema,
  doneSchema,
  streamErrorSchema,
  tokenUsageSchema,
} from "../../shared/responses.ts";

const answerSchema = z.strictObject({
  query: querySchema,
  documents: z.array(inlineDocumentSchema, { error: "must be an array of documents" })
    .max(LIMITS.answerDocuments, {
      error: `must hold at most ${LIMITS.answerDocuments} documents`,
    }),
  stream: z.boolean({ error: "must be true or false" }).default(false),
  json_schema: answerFormatSchema.optional().meta({
    description: "Answer as one JSON object this JSON Schema describes (`{name, schema, " +
      "strict?}`, the schema an object's): `answer` is the object as JSON text, `object` the " +
      "object, validated; streamed, it comes as one `answer-delta` once it is checked",
  }),
});

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Inline documents as the answer prompt sees them: metadata fields lifted out. */
export function toAnswerDocuments(
  documents: z.infer<typeof inlineDocumentSchema>[],
): AnswerDocument[] {
  return documents.map((document) => {
    if (typeof document === "string") return { text: document };
    const metadata = document.metadata ?? {};
    const authors = metadata.authors;
    const cited = citedFromMetadata(metadata);
    return {
      text: document.text,
      id: document.id,
      doc_id: text(metadata.doc_id),
      title: text(metadata.title),
      section: cited.section,
      page: cited.page,
      page_end: cited.page_end,
      chunk_index: cited.chunk_index,
      url: text(metadata.url),
      published: text(metadata.published),
      authors: Array.isArray(authors) ? authors.map(String) : text(authors),
    };
  });
}

/** A whole answer as the stream's events: its text as one delta, then its end and usage. */
async function sendWhole(
  send: (event: string, data: unknown) => Promise<void>,
  { usage, ...result }: AnswerResult,
): Promise<void> {
  await send("answer-delta", { text: result.answer });
  await send("answer-end", result);
  await send("usage", usage);
}

/** `POST /v1/answer`: JSON, or an event stream with `stream: true`. */
export function mountAnswer(app: Hono<AppEnv>): void {
  app.post(
    "/v1/answer",
    describe({
      tag: "answer",
      summary: "A grounded answer with [n] citations",
      description: "Says so (`answered: false`) when the documents do not answer the question.",
      body: answerSchema,
      responses: {
        200: {
          description: "The answer; with `stream: true` the events `answer-delta`..., " +
            "`answer-end`, `usage`, `done` (`error` then `done` if it fails midway)",
          content: {
            ...jsonContent(answerEndSchema.extend({ usage: tokenUsageSchema })),
            ...eventContent({
              "answer-delta": answerDeltaSchema,
              "answer-end": answerEndSchema,
              usage: tokenUsageSchema,
              error: streamErrorSchema,
              done: doneSchema,
            }),
          },
        },
      },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, answerSchema, { maxBytes: LIMITS.ingestBodyBytes });
      const input = { query: body.query, documents: toAnswerDocuments(body.documents) };
      const format = body.json_schema;
      if (format) {
        const answer = (signal?: AbortSignal) =>
          structuredAnswer(c.var.deps, { ...input, format }, signal);
        if (!body.stream) return c.json(await answer(c.req.raw.signal));
        // Checked before it is sent: a half-written object is no answer.
        return eventStream(c, async (send, signal) => sendWhole(send, await answer(signal)));
      }
      if (!body.stream) return c.json(await generateAnswer(c.var.deps, input, c.req.raw.signal));
      return eventStream(c, async (send, signal) => {
        const stream = streamAnswer(c.var.deps, input, signal);
        let step = await stream.next();
        for (; !step.done; step = await stream.next()) {
          await send("answer-delta", { text: step.value.text });
        }
        const { usage, ...result } = step.value;
        await send("answer-end", result);
        await send("usage", usage);
      });
    },
  );
}
