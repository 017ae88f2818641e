import { z } from "zod";
import { HASHED_EMBEDDING_DIMENSIONS, hashedEmbedding } from "../../shared/embeddings/hashed.ts";
import { countTokens } from "../../shared/text/tokenize.ts";
import type { FaultKind, Latency } from "../../shared/offline-knobs.ts";
import { sleep } from "./timing.ts";
import { float32Base64 } from "../../shared/embeddings/base64.ts";
import { errorResponse, jsonResponse, truncatedJsonResponse } from "./wire.ts";

const embeddingRequest = z.object({
  model: z.string(),
  input: z.unknown(),
  dimensions: z.number().int().min(1).max(8192).optional(),
  encoding_format: z.enum(["float", "base64"]).optional(),
});

/** The texts to embed, or the reason the input is refused (as OpenAI refuses it). */
function texts(input: unknown): string[] | string {
  const list = typeof input === "string" ? [input] : input;
  if (!Array.isArray(list) || list.length === 0) {
    return "input must be a non-empty string or array of strings";
  }
  if (list.some((item) => typeof item === "number" || Array.isArray(item))) {
    // Token ids only mean something for the tokenizer they came from; this model has none.
    return "The offline model embeds text only; token-array input is not supported";
  }
  if (list.some((item) => typeof item !== "string" || item === "")) {
    return "input must not contain empty or non-string items";
  }
  return list as string[];
}

/**
 * `POST /embeddings`: the hashed lexical embedding of each input, as floats
 * or as base64 float32 (the SDK asks for base64 unless told otherwise).
 */
export async function handleEmbeddings(
  body: unknown,
  context: { fault: FaultKind | undefined; latency: Latency; signal: AbortSignal },
): Promise<Response> {
  if (context.fault === "empty") {
    return new Response("", { headers: { "content-type": "application/json" } });
  }
  const parsed = embeddingRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return errorResponse(400, `${issue?.path.join(".") || "body"}: ${issue?.message}`, {
      param: String(issue?.path[0] ?? ""),
    });
  }
  const request = parsed.data;
  const inputs = texts(request.input);
  if (typeof inputs === "string") return errorResponse(400, inputs, { param: "input" });

  // Embeddings have no tokens to pace, but their first byte still waits like a model's.
  await sleep(context.latency.ttftMs, context.signal);
  const dimensions = request.dimensions ?? HASHED_EMBEDDING_DIMENSIONS;
  const tokens = inputs.reduce((sum, text) => sum + countTokens(text), 0);
  const data = context.fault === "malformed" ? [] : inputs.map((text, index) => {
    const vector = hashedEmbedding(text, dimensions);
    return {
      object: "embedding",
      index,
      embedding: request.encoding_format === "base64" ? float32Base64(vector) : vector,
    };
  });
  const response = {
    object: "list",
    data,
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  return context.fault === "cut" ? truncatedJsonResponse(response) : jsonResponse(response);
}
