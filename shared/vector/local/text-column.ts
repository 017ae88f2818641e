/**
 * The chunks' texts, one per slot. Texts loaded from a checkpoint stay as
 * the UTF-8 bytes they were stored as, one buffer for all of them, and are
 * decoded only when a search returns them: BM25 works from stored term
 * counts, so a load never needs the strings. (Parsing 100k texts as JSON was
 * a third of a restart.) Texts added since are kept as strings.
 */
export class TextColumn {
  /** Slots `0 .. stored - 1` live in `bytes` (text `i` is `offsets[i]` to `offsets[i + 1]`). */
  readonly #bytes: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #stored: number;
  /** Slots from `stored` on. */
  readonly #strings: string[] = [];

  constructor(stored?: { bytes: Uint8Array; offsets: Uint32Array }) {
    this.#bytes = stored?.bytes ?? new Uint8Array(0);
    this.#offsets = stored?.offsets ?? new Uint32Array(1);
    this.#stored = this.#offsets.length - 1;
  }

  /** A column of strings (tests, and checkpoints that stored texts as JSON). */
  static of(texts: readonly string[]): TextColumn {
    const column = new TextColumn();
    for (const text of texts) column.push(text);
    return column;
  }

  get length(): number {
    return this.#stored + this.#strings.length;
  }

  get(slot: number): string {
    if (slot >= this.#stored) return this.#strings[slot - this.#stored] ?? "";
    return decoder.decode(this.#bytes.subarray(this.#offsets[slot]!, this.#offsets[slot + 1]!));
  }

  /** The text's UTF-8 bytes: stored ones without decoding them (what a checkpoint writes). */
  bytes(slot: number): Uint8Array {
    if (slot >= this.#stored) return encoder.encode(this.#strings[slot - this.#stored] ?? "");
    return this.#bytes.subarray(this.#offsets[slot]!, this.#offsets[slot + 1]!);
  }

  push(text: string): void {
    this.#strings.push(text);
  }

  /** Lets a dead slot's string go (a stored one costs nothing extra until the next rebuild). */
  drop(slot: number): void {
    if (slot >= this.#stored) this.#strings[slot - this.#stored] = "";
  }

  /** The texts of `slots`, in order, as one new column of bytes. */
  pick(slots: readonly number[]): TextColumn {
    return new TextColumn(this.encode(slots));
  }

  /** The texts of `slots` as one buffer and their offsets in it (`slots.length + 1` of them). */
  encode(slots: readonly number[]): { bytes: Uint8Array; offsets: Uint32Array } {
    const parts = slots.map((slot) => this.bytes(slot));
    const offsets = new Uint32Array(parts.length + 1);
    parts.forEach((part, i) => (offsets[i + 1] = offsets[i]! + part.length));
    const bytes = new Uint8Array(offsets[parts.length]!);
    parts.forEach((part, i) => bytes.set(part, offsets[i]!));
    return { bytes, offsets };
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
