import type { ChunkMetadata } from "../port.ts";

/**
 * One namespace's index as flat arrays, slots numbered from 0 with no dead
 * ones: what a checkpoint stores and a load maps straight back into postings,
 * with no per-entry work. Posting `t` of the terms is entries
 * `termOffsets[t]` to `termOffsets[t + 1]` of `termSlots`/`termCounts`;
 * likewise for the dimensions.
 */
export type NamespaceSnapshot = {
  dimensions: number;
  ids: string[];
  texts: string[];
  metadata: ChunkMetadata[];
  lengths: Uint32Array;
  terms: string[];
  termOffsets: Uint32Array;
  termSlots: Uint32Array;
  termCounts: Uint16Array;
  dimOffsets: Uint32Array;
  dimSlots: Uint32Array;
  dimValues: Float32Array;
};
