import type { Context, Hono } from "hono";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { events, json } from "../../../shared/http/openapi.ts";
import { describe } from "../../../shared/http/openapi.ts";
import { answerChat } from "../openai/answer.ts";
import { answerWhole, readOpenAIBody } from "../openai/respond.ts";
import { presetPipeline } from "../openai/preset-pipeline.ts";
import { openAIErrorSchema } from "../openai/schemas.ts";
import { responseHead, responseOf } from "./output.ts";
import {
  conversationOfInput,
  refuseStatefulFields,
  type ResponsesRequest,
  responsesRequestSchema,
} from "./request.ts";
import { fileSearchCallItem, fileSearchHits, readFileSearch } from "./file-search.ts";
import type { SearchHit } from "../../../shared/vector/port.ts";
import { RESPONSE_EVENTS, responseSchema } from "./schemas.ts";
import { responsesStream, streamAnswer } from "./stream.ts";
import { answerFormatOf } from "../openai/output-format.ts";
import { refuseTools } from "../openai/tools.ts";

/** The request checked, its preset's pipeline and its conversation, before any work starts. */
async function readResponsesRequest(c: Context<AppEnv>) {
  const body = await readOpenAIBody(c, responsesRequestSchema);
  refuseStatefulFields(body);
  const fileSearch = await fileSearchOf(c, body);
  const pipeline = presetPipeline({
    ...body,
    // Citations name the store the passages came from (the first, when there are several).
    ...(fileSearch ? { namespace: fileSearch.vector_store_ids[0] } : {}),
  });
  return {
    body,
    fileSearch,
    input: {
      conversation: conversationOfInput(body.input),
      pipeline,
      answerFormat: answerFormatOf(body.text?.format),
    },
  };
}

/**
 * The request's one `file_search` tool, checked, its stores found (else a
 * 404 naming the store); any other tool is refused as chat refuses tools.
 */
async function fileSearchOf(c: Context<AppEnv>, body: ResponsesRequest) {
  const tools = body.tool_choice === "none" ? [] : body.tools ?? [];
  const [first, ...rest] = tools;
  const isFileSearch = (first as { type?: unknown } | undefined)?.type === "file_search";
  if (!isFileSearch || rest.length > 0) {
    refuseTools(isFileSearch ? { ...body, tools: rest } : body, "responses");
    return undefined;
  }
  return await readFileSearch(c.var.steps, first);
}

/**
 * OpenAI's Responses API over the `/v1/query` pipeline, the API the openai
 * client's `responses.create` and the AI SDK's default `openai(model)` call:
 * the same presets and answer as chat, in the Responses shapes.
 */
export function mountResponses(app: Hono<AppEnv>): void {
  app.post(
    "/v1/responses",
    describe({
      tag: "orchestrator",
      summary: "OpenAI Responses API over the pipeline",
      description: "`model` names a preset (see `/v1/models`); `input` is a string or " +
        "messages (content a string or `input_text` parts), the last user message the query, " +
        "rewritten into a standalone question when earlier turns exist. `instructions` is " +
        "accepted; the pipeline's own prompts write the answer. The answer is one " +
        "`output_text` whose `url_citation` annotations cover its `[n]` markers; `sources` " +
        "holds the passages. `text.format` `json_schema` (or `json_object`) answers with one " +
        "validated JSON object. sift keeps no responses: `previous_response_id`, " +
        "`conversation` and `prompt` are a 400, and `tools` are refused (400): sift calls " +
        "none. OpenAI's other documented parameters are accepted and ignored; any other " +
        "top-level field is a 400, `Unrecognized request argument supplied: ...`.",
      body: responsesRequestSchema,
      responses: {
        200: {
          description: "One `response`, or with `stream: true` its events, from " +
            "`response.created` to `response.completed`",
          content: {
            ...json("", responseSchema).content,
            ...events("", RESPONSE_EVENTS).content,
          },
        },
      },
      errors: [404, 502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const { body, input, fileSearch } = await readResponsesRequest(c);
      const include = body.include?.includes("file_search_call.results") ?? false;
      const head = responseHead(body.model, fileSearch && { tool: fileSearch, include });
      const deps = { llm: c.var.deps.llm, cache: c.var.deps.cache };
      /** file_search's retrieval, reporting what it found before the answer starts. */
      const retrieveWith = (
        context: typeof c.var.steps,
        onRetrieved: (query: string, hits: readonly SearchHit[]) => Promise<void>,
      ) =>
        fileSearch &&
        (async (query: string) => {
          const hits = await fileSearchHits(context, fileSearch, query);
          await onRetrieved(query, hits);
          return hits;
        });
      if (!body.stream) {
        let searched: { query: string; hits: readonly SearchHit[] } | undefined;
        const retrieve = retrieveWith(c.var.steps, (query, hits) => {
          searched = { query, hits };
          return Promise.resolve();
        });
        return await answerWhole(
          c,
          () =>
            answerChat({ ...deps, context: c.var.steps }, { ...input, retrieve }, async () => {}),
          (outcome) => {
            const item = head.fileSearch && searched &&
              fileSearchCallItem(head.fileSearch.callId, {
                queries: [searched.query],
                hits: searched.hits,
                include,
              });
            return responseOf(head, outcome, item);
          },
        );
      }
      return responsesStream(
        c,
        (emit, signal) =>
          streamAnswer(emit, head, ({ onDelta, onRetrieved }) => {
            const context = { ...c.var.steps, signal };
            return answerChat(
              { ...deps, context },
              { ...input, retrieve: retrieveWith(context, onRetrieved) },
              onDelta,
            );
          }),
      );
    },
  );
}
