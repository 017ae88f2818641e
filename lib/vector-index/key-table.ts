/**
 * Byte strings in one buffer (entry `i` is `bytes[offsets[i] .. offsets[i + 1]]`)
 * and an open-addressing hash table over them: what a checkpoint stores for
 * ids and document ids, so a load reads a few arrays instead of building a
 * `Map` entry per chunk. The table holds `index + 1` per cell (0: empty),
 * at least twice as many cells as entries, a power of two; a lookup probes
 * cells from the key's hash on and compares the bytes, so a table can only
 * find an entry whose bytes are the key's.
 */
export type ByteColumn = { bytes: Uint8Array; offsets: Float64Array };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a of bytes: short keys, no allocation, the same in writer and reader. */
export function hashBytes(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/** Cells for `count` entries: a power of two, at least twice `count`. */
export function tableCells(count: number): number {
  let cells = 8;
  while (cells < count * 2) cells *= 2;
  return cells;
}

/** A table over `count` entries whose hashes `hashOf` gives. */
export function buildTable(count: number, hashOf: (index: number) => number): Uint32Array {
  const table = new Uint32Array(tableCells(count));
  const mask = table.length - 1;
  for (let index = 0; index < count; index++) {
    let cell = hashOf(index) & mask;
    while (table[cell] !== 0) cell = (cell + 1) & mask;
    table[cell] = index + 1;
  }
  return table;
}

/** A column read back, with its table: look entries up by their string. */
export class KeyColumn {
  readonly count: number;
  readonly #column: ByteColumn;
  readonly #table: Uint32Array;

  constructor(column: ByteColumn, table: Uint32Array) {
    this.count = column.offsets.length - 1;
    this.#column = column;
    this.#table = table;
  }

  /** Whether the parts fit each other (sizes only; their bytes are checked by CRC). */
  static fits(column: ByteColumn, table: Uint32Array): boolean {
    const count = column.offsets.length - 1;
    return count >= 0 && column.offsets[count] === column.bytes.length &&
      table.length === tableCells(count);
  }

  bytes(index: number): Uint8Array {
    const { bytes, offsets } = this.#column;
    return bytes.subarray(offsets[index]!, offsets[index + 1]!);
  }

  get(index: number): string {
    return decoder.decode(this.bytes(index));
  }

  /** The entry whose bytes are `key`'s UTF-8, or undefined. */
  find(key: string): number | undefined {
    const wanted = encoder.encode(key);
    const { bytes, offsets } = this.#column;
    const mask = this.#table.length - 1;
    for (let cell = hashBytes(wanted) & mask;; cell = (cell + 1) & mask) {
      const entry = this.#table[cell]!;
      if (entry === 0) return undefined;
      const from = offsets[entry - 1]!;
      if (offsets[entry]! - from !== wanted.length) continue;
      let same = true;
      for (let i = 0; i < wanted.length && same; i++) same = bytes[from + i] === wanted[i];
      if (same) return entry - 1;
    }
  }
}
