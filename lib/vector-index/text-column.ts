import type { StoredTexts } from "./stored-rows.ts";

/**
 * The chunks' texts, one per slot, as UTF-8 bytes in one growing buffer
 * (text `i` is `offsets[i]` to `offsets[i + 1]`), decoded only when a search
 * returns them: BM25 works from stored term counts, so neither a load nor a
 * search needs the strings. (Parsing 100k texts as JSON was a third of a
 * restart; kept as strings, a million chunks' texts outgrew the 1 GiB heap
 * the server runs with, where bytes live outside it.) A checkpoint's texts
 * come in as they were stored; new ones are appended, and bytes written are
 * never changed, so a checkpoint can read them while writes go on. After a
 * load from a format-2 checkpoint, its texts stay in its file (`StoredTexts`)
 * and only texts added since are in memory.
 */
export class TextColumn {
  #bytes: Uint8Array;
  #offsets: Uint32Array;
  #count: number;
  /** Texts left in a checkpoint's file (slots below its count), read when asked for. */
  readonly #stored: StoredTexts | undefined;
  readonly #base: number;

  constructor(stored?: { bytes: Uint8Array; offsets: Uint32Array }, inFile?: StoredTexts) {
    this.#bytes = stored?.bytes ?? new Uint8Array(0);
    this.#offsets = stored?.offsets ?? new Uint32Array(1);
    this.#count = this.#offsets.length - 1;
    this.#stored = inFile;
    this.#base = inFile?.count ?? 0;
  }

  /** A column of strings (tests, and checkpoints that stored texts as JSON). */
  static of(texts: readonly string[]): TextColumn {
    const column = new TextColumn();
    for (const text of texts) column.push(text);
    return column;
  }

  get length(): number {
    return this.#base + this.#count;
  }

  get(slot: number): string {
    return decoder.decode(this.bytes(slot));
  }

  /** The text's UTF-8 bytes, as stored (what a checkpoint writes). */
  bytes(slot: number): Uint8Array {
    if (slot < this.#base) return this.#stored!.bytes(slot);
    const own = slot - this.#base;
    if (own >= this.#count) return new Uint8Array(0);
    return this.#bytes.subarray(this.#offsets[own]!, this.#offsets[own + 1]!);
  }

  push(text: string): void {
    const end = this.#offsets[this.#count]!;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.#reserve(end + text.length * 3, this.#count + 2);
    const { written } = encoder.encodeInto(text, this.#bytes.subarray(end));
    this.#offsets[++this.#count] = end + written;
  }

  /**
   * A dead slot's text: it stays until the next rebuild (a dead slot is never
   * read, and the buffer is append-only so that checkpoints can read it).
   */
  drop(_slot: number): void {}

  /** The texts of `slots`, in order, as one new column of bytes. */
  pick(slots: readonly number[]): TextColumn {
    return new TextColumn(this.encode(slots));
  }

  /** The texts of `slots` as one buffer and their offsets in it (`slots.length + 1` of them). */
  encode(slots: readonly number[]): { bytes: Uint8Array; offsets: Uint32Array } {
    const read = () => slots.map((slot) => this.bytes(slot));
    const parts = this.#stored ? this.#stored.batch(read) : read();
    const offsets = new Uint32Array(parts.length + 1);
    parts.forEach((part, i) => (offsets[i + 1] = offsets[i]! + part.length));
    const bytes = new Uint8Array(offsets[parts.length]!);
    parts.forEach((part, i) => bytes.set(part, offsets[i]!));
    return { bytes, offsets };
  }

  /** Grows by half again at least: appending stays amortized O(1). */
  #reserve(bytes: number, offsets: number): void {
    if (bytes > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(bytes, Math.ceil(this.#bytes.length * 1.5), 4096));
      grown.set(this.#bytes.subarray(0, this.#offsets[this.#count]!));
      this.#bytes = grown;
    }
    if (offsets > this.#offsets.length) {
      const grown = new Uint32Array(Math.max(offsets, Math.ceil(this.#offsets.length * 1.5), 64));
      grown.set(this.#offsets.subarray(0, this.#count + 1));
      this.#offsets = grown;
    }
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
