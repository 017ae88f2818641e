import { extraModels } from "./provider-models.ts";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { answerChat } from "../openai/answer.ts";
import { chunkOf, completionHead, completionOf, usageChunk } from "./completion.ts";
import { modelNotFound } from "../openai/errors.ts";
import { answerWhole, readOpenAIBody } from "../openai/respond.ts";
import { CHAT_PRESETS, modelList, modelObject, presetBody } from "../openai/presets.ts";
import { presetPipeline } from "../openai/preset-pipeline.ts";
import { chatRequestSchema, conversationOf } from "./request.ts";
import { openAIStream } from "./stream.ts";
import { chatAnswerFormat } from "../openai/output-format.ts";
import { refuseTools } from "../openai/tools.ts";
import { dataStreamContent, describe, json, jsonContent } from "../../../shared/http/openapi.ts";
import {
  chatCompletionChunkSchema,
  chatCompletionSchema,
  modelListSchema,
  modelSchema,
  openAIErrorSchema,
} from "../openai/schemas.ts";

/** The request checked, its preset's pipeline and its conversation, before any work starts. */
async function readChatRequest(c: Context<AppEnv>) {
  const body = await readOpenAIBody(c, chatRequestSchema);
  refuseTools(body, "chat");
  const pipeline = presetPipeline(body);
  return {
    body,
    input: {
      conversation: conversationOf(body.messages),
      pipeline,
      answerFormat: chatAnswerFormat(body.response_format),
    },
  };
}

/**
 * OpenAI's chat API over the `/v1/query` pipeline: `GET /v1/models` lists the
 * presets, `POST /v1/chat/completions` answers the last user message with the
 * preset `model` names, streamed or whole, its `[n]` markers annotated as
 * `url_citation`s and the passages in `sources`.
 */
export function mountChat(app: Hono<AppEnv>): void {
  app.get(
    "/v1/models",
    describe({
      tag: "orchestrator",
      summary: "The pipeline presets, as OpenAI models, and the models in use",
      description: "The presets (chat and Responses take one as `model`), then the embedding " +
        "model `/v1/embeddings` answers with, then the Workers AI models in use, if any.",
      responses: { 200: json("The presets and models", modelListSchema) },
      errorBody: openAIErrorSchema,
    }),
    (c) => {
      const list = modelList();
      return c.json({ ...list, data: [...list.data, ...extraModels(c.var.config, c.env ?? {})] });
    },
  );

  app.get(
    "/v1/models/:model",
    describe({
      tag: "orchestrator",
      summary: "One preset or model `/v1/models` lists",
      params: { model: "A preset's name, e.g. `sift-two-turn`, or the embedding model's" },
      responses: { 200: json("The preset", modelSchema) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    (c) => {
      const model = c.req.param("model") ?? "";
      if (presetBody(model)) return c.json(modelObject(model));
      const extra = extraModels(c.var.config, c.env ?? {}).find((entry) => entry.id === model);
      if (!extra) throw modelNotFound(model, Object.keys(CHAT_PRESETS));
      return c.json(extra);
    },
  );

  app.post(
    "/v1/chat/completions",
    describe({
      tag: "orchestrator",
      summary: "OpenAI-compatible chat over the pipeline",
      description: "`model` names a preset (see `/v1/models`); the last user message is the " +
        "query, rewritten into a standalone question when earlier turns exist. `[n]` markers " +
        "are covered by `url_citation` annotations; `sources` holds the passages. " +
        "`response_format` `json_schema` (or `json_object`) answers with one validated JSON " +
        "object. `tools` are refused (400): sift calls none. OpenAI's other documented " +
        "parameters (sampling, `user`, `metadata`, `store`...) are accepted and ignored; any " +
        "other top-level field is a 400 in OpenAI's words, `Unrecognized request argument " +
        "supplied: ...`.",
      body: chatRequestSchema,
      responses: {
        200: {
          description: "One `chat.completion`, or with `stream: true` an event stream whose " +
            "`data:` lines are `chat.completion.chunk`s, ending with `data: [DONE]`",
          content: {
            ...jsonContent(chatCompletionSchema),
            // A failure after the stream opened is one `{"error": ...}` line, as OpenAI's.
            ...dataStreamContent(z.union([chatCompletionChunkSchema, openAIErrorSchema])),
          },
        },
      },
      errors: [404, 502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const { body, input } = await readChatRequest(c);
      const head = completionHead(body.model);
      const deps = { llm: c.var.deps.llm, cache: c.var.deps.cache };

      if (!body.stream) {
        return await answerWhole(
          c,
          () => answerChat({ ...deps, context: c.var.steps }, input, async () => {}),
          (outcome) => completionOf(head, outcome),
        );
      }

      const includeUsage = body.stream_options?.include_usage === true;
      return openAIStream(c, async (write, signal) => {
        const chunk = (delta: Record<string, unknown>, options = {}) =>
          chunkOf(head, delta, { includeUsage, ...options });
        await write(chunk({ role: "assistant", content: "" }));
        const outcome = await answerChat(
          { ...deps, context: { ...c.var.steps, signal } },
          input,
          (text) => write(chunk({ content: text })),
        );
        // Indices are into the whole streamed content, so annotations follow the last delta.
        await write(chunk({ annotations: outcome.annotations }, {
          extra: { sources: outcome.sources, sift: outcome.sift },
        }));
        await write(chunk({}, { finishReason: "stop" }));
        if (includeUsage) await write(usageChunk(head, outcome.usage));
      });
    },
  );
}
