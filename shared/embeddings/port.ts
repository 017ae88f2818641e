/** Turns texts into dense vectors, one per text, in order. */
export interface Embedder {
  readonly model: string;
  /** The configured output size; undefined means the model's own default. */
  readonly dimensions?: number | undefined;
  embed(
    texts: string[],
    options?: { signal?: AbortSignal | undefined; dimensions?: number | undefined },
  ): Promise<number[][]>;
}

/**
 * The most dimensions an embedding may ask for: the largest any provider sift
 * knows serves (OpenAI's models stop at 3,072; the offline model at this).
 */
export const MAX_EMBEDDING_DIMENSIONS = 8192;
