import { IndexDamagedError } from "./errors.ts";
import { fastCrc32 } from "./kernel/crc.ts";
import type { RandomAccess } from "./stored-rows.ts";

const bytesOf = (array: ArrayBufferView) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/**
 * A checkpoint's term postings (or, in the postings layout, its dimension
 * postings) while a load still reads them in behind the first searches: the
 * final arrays exist (`slots`, `counts`, their `offsets` read and checked),
 * and a posting a search needs before the whole sections are in is read into
 * its place now, by position, and checked against its own CRC (`crcs[t]`:
 * its slots' bytes, then its values'). Once the loader has read and checked
 * both sections whole it sets `done`, and nothing is read by position again.
 * Damage is reported before a damaged posting is scored.
 */
export class StoredPostings {
  /** Set by the loader once both sections are in and checked: every term is present. */
  done = false;
  readonly #fetched: Uint8Array;

  constructor(
    readonly offsets: Uint32Array,
    readonly slots: Uint32Array,
    /** The values: a term's counts (u16), or a dimension's values (f32). */
    readonly counts: Uint16Array | Float32Array,
    readonly crcs: Uint32Array,
    /** Where the slots and counts sections begin in `file`. */
    readonly at: { slots: number; counts: number },
    readonly file: RandomAccess,
    /** What a posting is of, for the damage's message. */
    readonly of: "term" | "dimension" = "term",
  ) {
    this.#fetched = new Uint8Array(crcs.length);
  }

  /** Makes posting `t`'s entries present in `slots` and `counts`. */
  ensure(t: number): void {
    if (this.done || this.#fetched[t]) return;
    const from = this.offsets[t]!;
    const to = this.offsets[t + 1]!;
    const slots = bytesOf(this.slots.subarray(from, to));
    const counts = bytesOf(this.counts.subarray(from, to));
    this.file.batch(() => {
      this.file.readSync(this.at.slots + from * 4, slots);
      this.file.readSync(this.at.counts + from * this.counts.BYTES_PER_ELEMENT, counts);
    });
    if (fastCrc32(counts, fastCrc32(slots)) !== this.crcs[t]) {
      throw new IndexDamagedError({
        file: this.file.file,
        offset: this.at.slots + from * 4,
        why: `the stored postings of ${this.of} ${t} fail their checksum`,
      });
    }
    this.#fetched[t] = 1;
  }
}

/** Each posting's CRC as `StoredPostings` checks it, continued over its slots, then its counts. */
export function postingCrcs(count: number) {
  const crcs = new Uint32Array(count);
  return {
    crcs,
    /** Adds the bytes of postings `base ..` (a batch: `offsets` local to `values`) to their CRCs. */
    add(base: number, offsets: Uint32Array, values: Uint32Array | Uint16Array | Float32Array) {
      for (let i = 0; i + 1 < offsets.length; i++) {
        const part = bytesOf(values.subarray(offsets[i]!, offsets[i + 1]!));
        crcs[base + i] = fastCrc32(part, crcs[base + i]!);
      }
    },
  };
}
