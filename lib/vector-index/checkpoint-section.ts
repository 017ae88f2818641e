/** What `checkpoint-v2.ts` and `checkpoint-keys.ts` share: a section, a namespace's entry, damage. */

export type Section = { at: number; bytes: number; crc: number };

export type NamespaceEntry = {
  namespace: string;
  dimensions: number;
  count: number;
  terms: number;
  termEntries: number;
  dimEntries: number;
  /** Format 3: how many documents the key sections hold. */
  documents?: number;
  /** The dense layout: `stride` bytes per int8 row, `codeStride` per bit code, `codes` the mean's width. */
  dense?: { stride: number; codeStride: number; codes: number };
  sections: Record<string, Section>;
};

/** Writes one section from its pieces and records it in `sections`. */
export type SectionWriter = (
  sections: Record<string, Section>,
  name: string,
  pieces: Iterable<Uint8Array>,
) => Generator<Uint8Array>;

/** Damage found in a format-2 checkpoint, and the byte where the part that failed begins. */
export class SectionDamage extends Error {
  constructor(why: string, readonly offset: number) {
    super(why);
  }
}
