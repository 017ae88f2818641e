import type { Context, Hono } from "hono";
import { z } from "zod";
import { UnsupportedMediaTypeError } from "../../../shared/errors.ts";
import { multipartBoundary, readMultipart } from "../../../shared/http/multipart.ts";
import { describe, json } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { validateOpenAI } from "../../../shared/http/validate.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { openAIErrorSchema } from "../openai/schemas.ts";
import { FILE_PURPOSES, fileObjectSchema } from "./file-object.ts";
import {
  createFile,
  deleteFile,
  fileContent,
  listFiles,
  readFileForm,
  retrieveFile,
} from "./files.ts";
import { listQueryFields } from "./list-page.ts";
import { deletedSchema, listPageSchema } from "./shapes.ts";

/** Room for the form's own bytes (boundary, part headers, `purpose`) beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The upload, as openai's `files.create` sends it: multipart only. */
const FILE_FORM = {
  type: "object",
  required: ["file", "purpose"],
  additionalProperties: false,
  properties: {
    file: {
      type: "string",
      format: "binary",
      description: "The file: PDF, DOCX, HTML, Markdown or text",
    },
    purpose: { type: "string", enum: [...FILE_PURPOSES] },
  },
};

const listFilesQuery = z.strictObject({
  ...listQueryFields,
  purpose: z.enum(FILE_PURPOSES, { error: `must be ${FILE_PURPOSES.join(" or ")}` }).optional(),
});

const idParam = { file_id: "The file's id, `file-…`" };

async function readForm(c: Context<AppEnv>) {
  const boundary = multipartBoundary(c.req.header("content-type"));
  if (boundary === undefined) {
    throw new UnsupportedMediaTypeError(
      "content-type: send the file as multipart/form-data with file and purpose parts",
    );
  }
  const { maxBytes } = c.var.config.files;
  return readFileForm(
    await readMultipart(c.req.raw, boundary, {
      maxFileBytes: maxBytes,
      maxFiles: 1,
      maxTotalBytes: maxBytes + FORM_OVERHEAD_BYTES,
      fileTooLarge: (filename) =>
        new DocumentRefusedError(
          filename,
          "too_large",
          `is over the limit of ${maxBytes} bytes (FILE_MAX_BYTES)`,
        ),
      timeoutMs: c.var.config.bodyReadTimeoutMs,
    }),
  );
}

/**
 * OpenAI's Files API over sift's documents: a file is parsed once, by the
 * embed step, into a document of the tenant's `openai-files` namespace; its
 * name, size and purpose are a record beside it. Vector stores add files by
 * id (`vector-stores-app.ts`).
 */
export function mountFiles(app: Hono<AppEnv>): void {
  app.post(
    "/v1/files",
    describe({
      tag: "files",
      summary: "Upload a file (OpenAI's Files API)",
      description: "multipart/form-data with `file` and `purpose` (`assistants` or " +
        "`user_data`): parsed with the same parsers and limits as `/v1/documents` (what is " +
        "not a document is refused, naming why), then kept as a document of the tenant's " +
        "`openai-files` namespace. Answers OpenAI's file object, `id` `file-…`.",
      form: FILE_FORM,
      responses: { 200: json("The file", fileObjectSchema) },
      errors: [502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => c.json(await createFile(c.var.steps, await readForm(c))),
  );

  app.get(
    "/v1/files",
    describe({
      tag: "files",
      summary: "List files, newest first",
      query: listFilesQuery,
      responses: { 200: json("A page of files", listPageSchema(fileObjectSchema)) },
      errorBody: openAIErrorSchema,
    }),
    async (c) =>
      c.json(await listFiles(c.var.steps, validateOpenAI(listFilesQuery, c.req.query()))),
  );

  app.get(
    "/v1/files/:file_id",
    describe({
      tag: "files",
      summary: "A file's object",
      params: idParam,
      responses: { 200: json("The file", fileObjectSchema) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) => c.json(await retrieveFile(c.var.steps, c.req.param("file_id"))),
  );

  app.get(
    "/v1/files/:file_id/content",
    describe({
      tag: "files",
      summary: "The text sift extracted from a file",
      description: "`text/plain`: the text the parser found, its chunks joined without their " +
        "overlaps; not the original bytes (sift keeps what it parsed, not the file).",
      params: idParam,
      responses: {
        200: { description: "The text", content: { "text/plain": { schema: { type: "string" } } } },
      },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const text = await fileContent(c.var.steps, c.req.param("file_id"));
      return c.body(text, 200, { "content-type": "text/plain; charset=utf-8" });
    },
  );

  app.delete(
    "/v1/files/:file_id",
    describe({
      tag: "files",
      summary: "Delete a file",
      description: "Its text and record go; vector stores that hold it keep their copy.",
      params: idParam,
      responses: { 200: json("Deleted", deletedSchema("file")) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) => c.json(await deleteFile(c.var.steps, c.req.param("file_id"))),
  );
}
