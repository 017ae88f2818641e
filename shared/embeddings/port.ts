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
