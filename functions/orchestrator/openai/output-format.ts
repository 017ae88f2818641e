import { z } from "zod";
import {
  type AnswerFormat,
  answerFormatSchema,
  answerJsonSchema,
  JSON_OBJECT_FORMAT,
} from "../../../shared/structured-output/format.ts";

const FORMAT_TYPES = 'must be {type: "text"}, {type: "json_object"} or {type: "json_schema", ...}';

const { name, description, strict } = answerFormatSchema.shape;
/** OpenAI's json_schema fields; `schema` optional as chat's is (none: any object). */
const jsonSchemaFields = {
  name,
  description: description.nullish(),
  schema: answerJsonSchema.optional(),
  strict: strict.nullish(),
};

/** Chat's `response_format`, OpenAI's three kinds. */
export const chatResponseFormatSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text") }),
  z.strictObject({ type: z.literal("json_object") }),
  z.strictObject({ type: z.literal("json_schema"), json_schema: z.strictObject(jsonSchemaFields) }),
], { error: FORMAT_TYPES }).meta({
  description: "Honoured: `json_schema` answers with one JSON object the schema describes, " +
    "validated (the provider's structured output where it has one, else one correction " +
    "turn); `json_object` with any JSON object; `text` (the default) with prose",
});

/** Responses' `text`: its `format` (the same three kinds, json_schema's fields flat) and verbosity. */
export const responsesTextSchema = z.strictObject({
  format: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("text") }),
    z.strictObject({ type: z.literal("json_object") }),
    z.strictObject({ type: z.literal("json_schema"), ...jsonSchemaFields }),
  ], { error: FORMAT_TYPES }).nullish(),
  verbosity: z.enum(["low", "medium", "high"], { error: "must be low, medium or high" })
    .nullish().meta({ description: "Accepted and ignored: the answer prompt sets the length" }),
}).meta({
  description: "`format` is honoured as chat's `response_format` is: `json_schema` answers " +
    "with one validated JSON object, `json_object` with any object, `text` with prose",
});

type FormatKind =
  | { type: "text" }
  | { type: "json_object" }
  | ({ type: "json_schema" } & z.infer<z.ZodObject<typeof jsonSchemaFields>>);

/** The answer step's format for a request's output format; undefined for prose. */
export function answerFormatOf(format: FormatKind | null | undefined): AnswerFormat | undefined {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object" || !format.schema) {
    return format.type === "json_object"
      ? JSON_OBJECT_FORMAT
      : { ...JSON_OBJECT_FORMAT, name: format.name };
  }
  return {
    name: format.name,
    schema: format.schema,
    ...(format.description ? { description: format.description } : {}),
    ...(typeof format.strict === "boolean" ? { strict: format.strict } : {}),
  };
}

/** Chat's `response_format` as the answer step's format. */
export function chatAnswerFormat(
  responseFormat: z.infer<typeof chatResponseFormatSchema> | undefined,
): AnswerFormat | undefined {
  if (responseFormat?.type !== "json_schema") return answerFormatOf(responseFormat);
  return answerFormatOf({ type: "json_schema", ...responseFormat.json_schema });
}
