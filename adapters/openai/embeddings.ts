import type OpenAI from "openai";
import { toLlmError } from "../../shared/llm/errors.ts";
import type { Embedder } from "../../shared/embeddings/port.ts";
import { inModelCall } from "../../shared/tracing/gen-ai.ts";
import {
  embeddingsReplySchema,
  isMalformedReply,
  jitteredDelay,
  MALFORMED_REPLY_ATTEMPTS,
  MalformedReplyError,
} from "../../shared/embeddings/malformed.ts";

/** Inputs per embeddings call: well under providers' limits (2048) and request sizes. */
export const EMBEDDING_BATCH_SIZE = 96;
const CONCURRENT_BATCHES = 4;

/**
 * Embeddings over any OpenAI-compatible `/v1/embeddings` (OpenAI, the offline
 * model's hashed embedding, vLLM...). Large inputs go out in batches, a few at
 * a time, and come back in input order.
 */
export class OpenAIEmbedder implements Embedder {
  readonly model: string;
  readonly #client: OpenAI;
  readonly dimensions: number | undefined;
  readonly #provider: string;
  readonly #floats: boolean;

  /** `floats`: ask for plain float arrays, for providers that do not encode base64 (Workers AI). */
  constructor(
    options: {
      client: OpenAI;
      model: string;
      dimensions?: number | undefined;
      provider?: string;
      floats?: boolean;
    },
  ) {
    this.#client = options.client;
    this.#provider = options.provider ?? "openai";
    this.#floats = options.floats ?? false;
    this.model = options.model;
    this.dimensions = options.dimensions;
  }

  async embed(
    texts: string[],
    options: {
      signal?: AbortSignal | undefined;
      dimensions?: number | undefined;
      onTokens?: ((tokensIn: number) => void) | undefined;
    } = {},
  ): Promise<number[][]> {
    const dimensions = options.dimensions ?? this.dimensions;
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += EMBEDDING_BATCH_SIZE) {
      batches.push(texts.slice(i, i + EMBEDDING_BATCH_SIZE));
    }
    const results: number[][][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const position = next++;
        results[position] = await this.#embedBatch(
          batches[position]!,
          dimensions,
          options.signal,
          options.onTokens,
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_BATCHES, batches.length) }, worker));
    return results.flat();
  }

  /**
   * The SDK retries 429, 5xx, timeouts and dropped connections itself; a 200
   * whose body is cut, not JSON, or holds the wrong number of embeddings it
   * hands over as is. Those are retried here, a bounded number of times with
   * jittered backoff.
   */
  async #embedBatch(
    input: string[],
    dimensions: number | undefined,
    signal: AbortSignal | undefined,
    onTokens: ((tokensIn: number) => void) | undefined,
  ): Promise<number[][]> {
    for (let attempt = 1;; attempt++) {
      try {
        return await this.#embedOnce(input, dimensions, signal, onTokens);
      } catch (error) {
        if (attempt >= MALFORMED_REPLY_ATTEMPTS || !isMalformedReply(error) || signal?.aborted) {
          throw toLlmError(error, "embeddings");
        }
        await jitteredDelay(attempt, signal);
      }
    }
  }

  async #embedOnce(
    input: string[],
    dimensions: number | undefined,
    signal: AbortSignal | undefined,
    onTokens: ((tokensIn: number) => void) | undefined,
  ): Promise<number[][]> {
    const response = await inModelCall(
      { operation: "embeddings", provider: this.#provider, model: this.model },
      () =>
        this.#client.embeddings.create(
          {
            model: this.model,
            input,
            ...(dimensions ? { dimensions } : {}),
            ...(this.#floats ? { encoding_format: "float" as const } : {}),
          },
          signal ? { signal } : {},
        ),
      (reply) => ({
        tokensIn: reply?.usage?.prompt_tokens ?? 0,
        tokensOut: 0,
        responseModel: reply?.model,
      }),
    );
    const reply = embeddingsReplySchema.safeParse(response);
    if (!reply.success) throw new MalformedReplyError("the embeddings reply has no usable data");
    const tokensIn = (response as { usage?: { prompt_tokens?: unknown } }).usage?.prompt_tokens;
    if (typeof tokensIn === "number" && tokensIn > 0) onTokens?.(tokensIn);
    // Providers may reorder; `index` is authoritative.
    const ordered = [...reply.data.data].sort((x, y) => x.index - y.index);
    if (ordered.length !== input.length) {
      throw new MalformedReplyError(`expected ${input.length} embeddings, got ${ordered.length}`);
    }
    return ordered.map((item) => item.embedding);
  }
}
