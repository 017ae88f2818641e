/** Turns texts into dense vectors, one per text, in order. */
export interface Embedder {
  readonly model: string;
  /** The configured output size; undefined means the model's own default. */
  readonly dimensions?: number | undefined;
  /**
   * `onTokens` hears the input tokens of each call the provider made, as it
   * reported them (a provider that reports none, or the offline model, stays
   * silent), so a step can count and price them.
   */
  embed(
    texts: string[],
    options?: {
      signal?: AbortSignal | undefined;
      dimensions?: number | undefined;
      onTokens?: ((tokensIn: number) => void) | undefined;
    },
  ): Promise<number[][]>;
}

/**
 * The most dimensions an embedding may ask for: the largest any provider sift
 * knows serves (OpenAI's models stop at 3,072; the offline model at this).
 */
export const MAX_EMBEDDING_DIMENSIONS = 8192;
