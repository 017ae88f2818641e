/** Turns texts into dense vectors, one per text, in order. */
export interface Embedder {
  readonly model: string;
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
