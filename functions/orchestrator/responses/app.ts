import type { Context, Hono } from "hono";
import type { AppEnv } from "../../../shared/http/server.ts";
import { events, json } from "../../../shared/http/openapi.ts";
import { describe } from "../../../shared/http/openapi.ts";
import { readRawJson } from "../../../shared/http/validate.ts";
import { LIMITS } from "../../../shared/limits.ts";
import { answerChat } from "../chat/chat.ts";
import { invalidBody, toOpenAIError } from "../chat/errors.ts";
import { presetPipeline } from "../chat/preset-pipeline.ts";
import { openAIErrorSchema } from "../chat/responses.ts";
import { responseHead, responseOf } from "./output.ts";
import { conversationOfInput, refuseStatefulFields, responsesRequestSchema } from "./request.ts";
import { RESPONSE_EVENTS, responseSchema } from "./schemas.ts";
import { responsesStream, streamAnswer } from "./stream.ts";
import { answerFormatOf } from "../chat/output-format.ts";
import { refuseTools } from "../chat/tools.ts";

/** The request checked, its preset's pipeline and its conversation, before any work starts. */
async function readResponsesRequest(c: Context<AppEnv>) {
  const raw = await readRawJson(c, { maxBytes: LIMITS.bodyBytes });
  const parsed = responsesRequestSchema.safeParse(raw);
  if (!parsed.success) throw invalidBody(parsed.error, responsesRequestSchema);
  const body = parsed.data;
  refuseStatefulFields(body);
  refuseTools(body, "responses");
  const pipeline = presetPipeline(body);
  return {
    body,
    input: {
      conversation: conversationOfInput(body.input),
      pipeline,
      answerFormat: answerFormatOf(body.text?.format),
    },
  };
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
      const { body, input } = await readResponsesRequest(c);
      const head = responseHead(body.model);
      const deps = { llm: c.var.deps.llm, cache: c.var.deps.cache };
      if (!body.stream) {
        try {
          const outcome = await answerChat(
            { ...deps, context: c.var.steps },
            input,
            async () => {},
          );
          return c.json(responseOf(head, outcome));
        } catch (error) {
          if (!c.req.raw.signal.aborted) {
            console.error(`${c.req.method} ${c.req.path} failed:`, error);
          }
          return c.json(toOpenAIError(error, { status: 502 }).body, 502);
        }
      }
      return responsesStream(c, (emit, signal) =>
        streamAnswer(
          emit,
          head,
          (onDelta) => answerChat({ ...deps, context: { ...c.var.steps, signal } }, input, onDelta),
        ));
    },
  );
}
