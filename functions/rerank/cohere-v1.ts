import { z } from "zod";
import { isCrossEncoderModel } from "../../shared/rerank/cross-encoder.ts";
import { cohereSchema } from "./cohere.ts";

/** What only Cohere's v1 rerank body has: sift's own `/v1/rerank` body never does. */
const COHERE_ONLY_FIELDS = ["return_documents", "rank_fields", "max_chunks_per_doc"];

/**
 * Whether a `/v1/rerank` body is Cohere's v1 (`cohere-ai`'s `CohereClient`,
 * LangChain's `CohereRerank`) rather than sift's native one: it has a field
 * only Cohere's has, or a `model` that is not a cross-encoder and no
 * `strategy` (sift's body names a cross-encoder in `model`, a strategy in
 * `strategy`; Cohere's names its model, for sift a `sift-*` strategy).
 *
 * @example
 * isCohereV1Body({ model: "sift-one-turn", query: "q", documents: ["a"], top_n: 1 }); // true
 * isCohereV1Body({ query: "q", documents: ["a"], strategy: "two-turn" }); // false
 */
export function isCohereV1Body(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  if (COHERE_ONLY_FIELDS.some((field) => Object.hasOwn(fields, field))) return true;
  return Object.hasOwn(fields, "model") && !Object.hasOwn(fields, "strategy") &&
    !(typeof fields.model === "string" && isCrossEncoderModel(fields.model));
}

/**
 * Cohere's v1 rerank body: v2's (`cohereSchema`), with v1's `model` optional
 * (`sift-one-turn`, the native default strategy) and its `max_chunks_per_doc`
 * accepted and ignored: sift ranks each document whole.
 */
export const cohereV1Schema = cohereSchema.extend({
  model: cohereSchema.shape.model.default("sift-one-turn"),
  max_chunks_per_doc: z.number({ error: "must be a number" }).int({
    error: "must be a whole number",
  })
    // nullish: cohere-ai's v1 client sends null for one left undefined (LangChain does).
    .positive({ error: "must be at least 1" }).nullish().meta({
      description: "Accepted and ignored: sift ranks each document whole",
    }),
});
