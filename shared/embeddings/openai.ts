import type OpenAI from "openai";
import { toLlmError } from "../llm/errors.ts";
import type { Embedder } from "./port.ts";

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

  constructor(options: { client: OpenAI; model: string; dimensions?: number | undefined }) {
    this.#client = options.client;
    this.model = options.model;
    this.dimensions = options.dimensions;
  }

  async embed(
    texts: string[],
    options: { signal?: AbortSignal | undefined; dimensions?: number | undefined } = {},
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
        results[position] = await this.#embedBatch(batches[position]!, dimensions, options.signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_BATCHES, batches.length) }, worker));
    return results.flat();
  }

  async #embedBatch(
    input: string[],
    dimensions: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    try {
      const response = await this.#client.embeddings.create(
        {
          model: this.model,
          input,
          ...(dimensions ? { dimensions } : {}),
        },
        signal ? { signal } : {},
      );
      // Providers may reorder; `index` is authoritative.
      const ordered = [...response.data].sort((x, y) => x.index - y.index);
      if (ordered.length !== input.length) {
        throw new Error(`expected ${input.length} embeddings, got ${ordered.length}`);
      }
      return ordered.map((item) => item.embedding);
    } catch (error) {
      throw toLlmError(error, "embeddings");
    }
  }
}
