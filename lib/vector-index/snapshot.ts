import type { DenseVectors, DenseVectorsView } from "./dense-vectors.ts";
import type { SlotKeys } from "./slot-keys.ts";
import type { StoredPostings } from "./stored-postings.ts";
import type { TextColumn } from "./text-column.ts";

/**
 * One namespace's index as flat arrays, slots numbered from 0 with no dead
 * ones: what a checkpoint stores and a load maps straight back into postings,
 * with no per-entry work. Posting `t` of the terms is entries
 * `termOffsets[t]` to `termOffsets[t + 1]` of `termSlots`/`termCounts`;
 * likewise for the dimensions. A namespace in the dense layout has
 * `vectors` instead, and no dimension postings.
 */
export type NamespaceSnapshot = {
  dimensions: number;
  /** Ids and metadata per slot (a checkpoint's stored columns, or plain arrays). */
  keys: SlotKeys;
  texts: TextColumn;
  lengths: Uint32Array;
  terms: string[];
  termOffsets: Uint32Array;
  termSlots: Uint32Array;
  termCounts: Uint16Array;
  /** Set while a load still reads the term postings in: a term is read by position before use. */
  storedPostings?: StoredPostings;
  /** The same for the dimension postings (the postings layout): a dimension read before use. */
  storedDims?: StoredPostings;
  dimOffsets: Uint32Array;
  dimSlots: Uint32Array;
  dimValues: Float32Array;
  vectors?: DenseVectors;
};

/**
 * One namespace as it stands at a checkpoint's moment, without copying it:
 * the current arrays and each posting's length then. Postings only grow and
 * a grown posting gets new arrays, so what is captured stays as it was while
 * the checkpoint is written and new writes carry on. A slot that dies
 * meanwhile may be left out (its removal is in the log after the checkpoint);
 * one added meanwhile is past `slotCount`.
 */
export type NamespaceView = {
  dimensions: number;
  slotCount: number;
  alive: Uint8Array;
  keys: SlotKeys;
  texts: TextColumn;
  lengths: Uint32Array;
  terms: { term: string; slots: Uint32Array; counts: Uint16Array; length: number }[];
  dims: ({ slots: Uint32Array; values: Float32Array; length: number } | undefined)[];
  /** The dense layout's vectors as they are now (rows below `slotCount` never change). */
  vectors?: DenseVectorsView;
};
