import { answerStructuredPrompt } from "../../prompts/answer-structured.ts";
import { type ChatRequest, completeObject, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { extractJsonObject } from "../../shared/llm/json.ts";
import { correctionTurns, sumUsage } from "../../core/correction.ts";
import { renderDocuments, renderTemplate } from "../../shared/llm/prompt.ts";
import { UpstreamError } from "../../shared/errors.ts";
import type { AnswerFormat } from "../../shared/structured-output/format.ts";
import { isStrictCompatible } from "../../shared/structured-output/strict.ts";
import { describeProblems, jsonSchemaValidator } from "../../shared/structured-output/validator.ts";
import { type AnswerDocument, type AnswerResult, citationsIn } from "./answer.ts";

export type StructuredAnswer = AnswerResult & { object: Record<string, unknown> };

/** The schema as prompt text: JSON with `<` escaped, so no text in it can pose as a tag. */
function schemaText(format: AnswerFormat): string {
  const { $schema: _, ...schema } = format.schema;
  return JSON.stringify(schema, null, 1).replaceAll("<", "\\u003c");
}

function buildRequest(
  query: string,
  documents: readonly AnswerDocument[],
  format: AnswerFormat,
  signal: AbortSignal | undefined,
): ChatRequest {
  return {
    prompt: answerStructuredPrompt,
    system: answerStructuredPrompt.system,
    user: renderTemplate(answerStructuredPrompt.user, {
      documents: renderDocuments(documents),
      name: format.name,
      schema: schemaText(format),
      query,
    }),
    signal,
  };
}

/**
 * The answer as the JSON object a caller's schema describes. The provider's
 * structured output is asked for where it has one (`LLM_STRUCTURED_OUTPUTS`;
 * strict when the caller asked and the schema allows it); the reply is
 * validated against the schema either way, and one correction turn says what
 * was wrong. An object still invalid after it is a 502: the caller asked for
 * a shape, and prose or half an object is not it. `answer` is the object as
 * JSON text, whose `[n]` markers are its citations.
 */
export async function structuredAnswer(
  deps: { llm: LlmContext },
  input: { query: string; documents: readonly AnswerDocument[]; format: AnswerFormat },
  signal?: AbortSignal,
): Promise<StructuredAnswer> {
  const { format } = input;
  const validator = jsonSchemaValidator(format.schema);
  const { $schema: _, ...providerSchema } = format.schema;
  const request = {
    ...buildRequest(input.query, input.documents, format, signal),
    schema: validator,
    schemaName: format.name,
    responseJsonSchema: {
      schema: providerSchema,
      strict: format.strict === true && isStrictCompatible(providerSchema),
    },
  };
  let usage: TokenUsage = { tokens_in: 0, tokens_out: 0 };
  let followUp: ChatRequest["followUp"];
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await completeObject(deps.llm, { ...request, followUp });
    usage = sumUsage(usage, reply.usage);
    // Read again here (completeObject gives no object that failed): the problems go back to the model.
    const checked = validator.safeParse(reply.object ?? extractJsonObject(reply.text));
    if (checked.success && isRecord(checked.data)) {
      const object = checked.data;
      const answer = JSON.stringify(object);
      return {
        answer,
        object,
        citations: citationsIn(answer, input.documents),
        answered: true,
        usage,
      };
    }
    const problems = checked.success ? "not an object" : describeProblems(checked.error);
    followUp = correctionTurns(
      reply.text,
      renderTemplate(answerStructuredPrompt.problem, { problems }),
      renderTemplate(answerStructuredPrompt.format, { name: format.name }),
    );
  }
  throw new UpstreamError("LLM", {
    isRetryable: true,
    message: `The model's answer did not match the schema "${format.name}" (tried twice)`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
