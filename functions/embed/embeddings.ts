import { float32Base64 } from "../../shared/embeddings/base64.ts";
import type { Embedder } from "../../shared/embeddings/port.ts";
import { countTokens } from "../../shared/text/tokenize.ts";
import { callerParameterError } from "../../shared/llm/caller-error.ts";

/** OpenAI-compatible `/v1/embeddings` body from this service's embedder. */
export async function createEmbeddings(
  deps: { embedder: Embedder },
  input: { texts: string[]; encoding: "float" | "base64"; dimensions?: number | undefined },
  signal?: AbortSignal,
) {
  const vectors = await deps.embedder.embed(input.texts, { signal, dimensions: input.dimensions })
    .catch((error) => {
      // Only `dimensions` is the caller's to get wrong: `model` is not passed on.
      throw callerParameterError(error, input.dimensions ? ["dimensions"] : []) ?? error;
    });
  const tokens = input.texts.reduce((sum, text) => sum + countTokens(text), 0);
  return {
    object: "list" as const,
    data: vectors.map((vector, index) => ({
      object: "embedding" as const,
      index,
      embedding: input.encoding === "base64" ? float32Base64(vector) : vector,
    })),
    model: deps.embedder.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
