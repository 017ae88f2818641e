import { crc32 } from "./crc32.ts";
import { IndexDamagedError } from "./errors.ts";
import type { ByteColumn, KeyColumn } from "./key-table.ts";
import type { ChunkMetadata } from "./types.ts";
import type { RandomAccess } from "./stored-rows.ts";

/**
 * A checkpoint's ids, metadata and documents as it stored them: columns of
 * bytes and the tables over them (`key-table.ts`), read straight into
 * buffers. Document `d`'s slots are `documentSlots[documentSlotOffsets[d] ..
 * documentSlotOffsets[d + 1]]`, ascending. Each metadata entry has a CRC of
 * its own, checked when it is first decoded (or copied into a checkpoint):
 * a load reads the column but never scans it.
 */
export type StoredKeys = {
  ids: KeyColumn;
  documents: KeyColumn;
  documentSlotOffsets: Uint32Array;
  documentSlots: Uint32Array;
  metadata: ByteColumn;
  metadataCrcs: Uint32Array;
  /** Where the metadata column begins in `source`'s file (damage is reported there). */
  metadataAt: number;
  source: RandomAccess;
  /**
   * Set while a load still reads the metadata column in (`done` once it is
   * in): an entry is read from `source` by position meanwhile.
   */
  metadataPending?: { done: boolean };
  /** Set while a load still reads the documents' sections in: document lookups must wait. */
  documentsPending?: { done: boolean };
};

/** Documents as a checkpoint writes them: ids' bytes, and each one's slots as a range. */
export type DocumentColumns = { ids: Uint8Array[]; offsets: Uint32Array; positions: Uint32Array };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Per slot, a chunk's id and metadata, and the lookups over them: id → slot
 * and document → slots, for live slots only. Slots below `base` come from a
 * checkpoint (`StoredKeys`, decoded one at a time when asked for); slots
 * appended since are plain arrays and `Map`s, as small as the writes since
 * the load. Append-only like the rest of a namespace: a slot's id and
 * metadata never change, so a checkpoint can read them while writes go on.
 */
export class SlotKeys {
  readonly #stored: StoredKeys | undefined;
  readonly #base: number;
  /** Stored slots removed since the load (their ids no longer map). */
  readonly #storedDead: Uint8Array;
  readonly #decoded = new Map<number, ChunkMetadata>();
  readonly #ids: string[] = [];
  readonly #metadata: ChunkMetadata[] = [];
  readonly #slotOf = new Map<string, number>();
  /** A document's appended slots: a short array (a Set per document costs more than it saves). */
  readonly #slotsOfDocument = new Map<string, number[]>();
  #wellFormed = true;

  constructor(stored?: StoredKeys) {
    this.#stored = stored;
    this.#base = stored?.ids.count ?? 0;
    this.#storedDead = new Uint8Array(this.#base);
  }

  /** Keys of plain arrays (an index built or rebuilt in memory, an older checkpoint). */
  static of(ids: readonly string[], metadata: readonly ChunkMetadata[]): SlotKeys {
    const keys = new SlotKeys();
    for (let slot = 0; slot < ids.length; slot++) keys.push(ids[slot]!, metadata[slot]!);
    return keys;
  }

  /** Slots held, dead ones included. */
  get length(): number {
    return this.#base + this.#ids.length;
  }

  id(slot: number): string {
    return slot >= this.#base ? this.#ids[slot - this.#base]! : this.#stored!.ids.get(slot);
  }

  /**
   * Whether slot `a`'s id sorts before slot `b`'s as strings compare (ties
   * between equal scores), from the stored bytes where it can: UTF-8 byte
   * order is code point order, which is JS string order except between
   * U+E000..U+FFFF and a surrogate pair (both lead bytes 0xEE or over).
   */
  idBefore(a: number, b: number): boolean {
    if (a >= this.#base || b >= this.#base) return this.id(a) < this.id(b);
    const ids = this.#stored!.ids;
    const x = ids.bytes(a);
    const y = ids.bytes(b);
    const shared = Math.min(x.length, y.length);
    for (let i = 0; i < shared; i++) {
      if (x[i] === y[i]) continue;
      if (x[i]! >= 0xee && y[i]! >= 0xee) return this.id(a) < this.id(b);
      return x[i]! < y[i]!;
    }
    return x.length < y.length;
  }

  /** The id's UTF-8 bytes (a checkpoint copies stored ones as they are). */
  idBytes(slot: number): Uint8Array {
    return slot >= this.#base
      ? encoder.encode(this.#ids[slot - this.#base]!)
      : this.#stored!.ids.bytes(slot);
  }

  metadata(slot: number): ChunkMetadata {
    if (slot >= this.#base) return this.#metadata[slot - this.#base]!;
    let metadata = this.#decoded.get(slot);
    if (!metadata) {
      metadata = JSON.parse(decoder.decode(this.metadataBytes(slot))) as ChunkMetadata;
      this.#decoded.set(slot, metadata);
    }
    return metadata;
  }

  /** The metadata as JSON bytes; a stored entry's CRC is checked first. */
  metadataBytes(slot: number): Uint8Array {
    if (slot >= this.#base) {
      return encoder.encode(JSON.stringify(this.#metadata[slot - this.#base]));
    }
    const stored = this.#stored!;
    const from = stored.metadata.offsets[slot]!;
    const to = stored.metadata.offsets[slot + 1]!;
    let bytes: Uint8Array;
    if (stored.metadataPending && !stored.metadataPending.done) {
      bytes = new Uint8Array(to - from);
      stored.source.batch(() => stored.source.readSync(stored.metadataAt + from, bytes));
    } else bytes = stored.metadata.bytes.subarray(from, to);
    if (crc32(bytes) !== stored.metadataCrcs[slot]) {
      throw new IndexDamagedError({
        file: stored.source.file,
        offset: stored.metadataAt + from,
        why: `the stored metadata of slot ${slot} fails its checksum`,
      });
    }
    return bytes;
  }

  /**
   * Whether every id and document id is well-formed Unicode, so UTF-8 holds
   * it exactly (a lone surrogate would come back as U+FFFD; a checkpoint
   * writes such keys as JSON instead).
   */
  get wellFormed(): boolean {
    return this.#wellFormed;
  }

  /** Appends a live slot; returns its number. */
  push(id: string, metadata: ChunkMetadata): number {
    const slot = this.length;
    if (!id.isWellFormed() || !String(metadata.doc_id).isWellFormed()) this.#wellFormed = false;
    this.#ids.push(id);
    this.#metadata.push(metadata);
    this.#slotOf.set(id, slot);
    const slots = this.#slotsOfDocument.get(metadata.doc_id);
    if (slots) slots.push(slot);
    else this.#slotsOfDocument.set(metadata.doc_id, [slot]);
    return slot;
  }

  /** The live slot holding `id`, if any. */
  slotOf(id: string): number | undefined {
    const own = this.#slotOf.get(id);
    if (own !== undefined || !this.#stored) return own;
    const slot = this.#stored.ids.find(id);
    return slot === undefined || this.#storedDead[slot] ? undefined : slot;
  }

  /** The live slot `slot` dies: its id maps to nothing and its document loses it. */
  remove(slot: number): void {
    if (slot < this.#base) {
      this.#storedDead[slot] = 1;
      return;
    }
    this.#slotOf.delete(this.#ids[slot - this.#base]!);
    const docId = this.#metadata[slot - this.#base]!.doc_id;
    const slots = this.#slotsOfDocument.get(docId);
    if (slots) {
      slots.splice(slots.indexOf(slot), 1);
      if (slots.length === 0) this.#slotsOfDocument.delete(docId);
    }
  }

  /** A document's live slots, ascending. */
  documentSlots(docId: string): number[] {
    this.#documentsIn();
    const slots = this.#storedSlots(this.#stored?.documents.find(docId));
    const own = this.#slotsOfDocument.get(docId);
    return own ? slots.concat(own) : slots;
  }

  hasDocument(docId: string): boolean {
    this.#documentsIn();
    return this.#slotsOfDocument.has(docId) ||
      this.#storedSlots(this.#stored?.documents.find(docId)).length > 0;
  }

  /** Every document with a live slot, in no order. */
  *documentIds(): IterableIterator<string> {
    this.#documentsIn();
    const stored = this.#stored;
    for (let doc = 0; stored && doc < stored.documents.count; doc++) {
      if (this.#storedSlots(doc).length > 0) yield stored.documents.get(doc);
    }
    for (const docId of this.#slotsOfDocument.keys()) {
      if (this.#storedSlots(stored?.documents.find(docId)).length === 0) yield docId;
    }
  }

  /**
   * The documents of the slots in `live` (ascending), as a checkpoint writes
   * them: each document's id bytes, and its slots as positions in `live`
   * (ranges of `positions` by `offsets`, ascending). Only what never changes
   * is read (stored documents, appended metadata), so `live` may be a view
   * that lags behind removals made since.
   */
  documentsOf(live: readonly number[]): DocumentColumns {
    this.#documentsIn();
    const stored = this.#stored;
    const storedNumber = new Int32Array(stored?.documents.count ?? 0).fill(-1);
    const ownNumber = new Map<string, number>();
    const ids: Uint8Array[] = [];
    const docOf = new Uint32Array(live.length);
    const slotDocuments = this.#storedDocumentOfSlot();
    for (let i = 0; i < live.length; i++) {
      const slot = live[i]!;
      let doc = slot < this.#base ? slotDocuments[slot]! : stored?.documents.find(
        this.#metadata[slot - this.#base]!.doc_id,
      );
      if (doc !== undefined) {
        if (storedNumber[doc]! < 0) storedNumber[doc] = ids.push(stored!.documents.bytes(doc)) - 1;
        docOf[i] = storedNumber[doc]!;
        continue;
      }
      const docId = this.#metadata[slot - this.#base]!.doc_id;
      doc = ownNumber.get(docId);
      if (doc === undefined) ownNumber.set(docId, doc = ids.push(encoder.encode(docId)) - 1);
      docOf[i] = doc;
    }
    const offsets = new Uint32Array(ids.length + 1);
    for (let i = 0; i < live.length; i++) offsets[docOf[i]! + 1]!++;
    for (let d = 0; d < ids.length; d++) offsets[d + 1]! += offsets[d]!;
    const next = offsets.slice(0, ids.length);
    const positions = new Uint32Array(live.length);
    for (let i = 0; i < live.length; i++) positions[next[docOf[i]!]!++] = i;
    return { ids, offsets, positions };
  }

  /** Each stored slot's document, from the stored ranges (for `documentsOf`). */
  #storedDocumentOfSlot(): Uint32Array {
    const stored = this.#stored;
    const documentOf = new Uint32Array(this.#base);
    for (let doc = 0; stored && doc < stored.documents.count; doc++) {
      const to = stored.documentSlotOffsets[doc + 1]!;
      for (let i = stored.documentSlotOffsets[doc]!; i < to; i++) {
        documentOf[stored.documentSlots[i]!] = doc;
      }
    }
    return documentOf;
  }

  /** Throws while a load still reads the documents in (the index makes their callers wait). */
  #documentsIn(): void {
    if (this.#stored?.documentsPending && !this.#stored.documentsPending.done) {
      throw new Error("slot keys: documents looked up while a load still reads them in");
    }
  }

  /** Stored document `doc`'s live slots (none for undefined). */
  #storedSlots(doc: number | undefined): number[] {
    const stored = this.#stored;
    if (doc === undefined || !stored) return [];
    const slots: number[] = [];
    const to = stored.documentSlotOffsets[doc + 1]!;
    for (let i = stored.documentSlotOffsets[doc]!; i < to; i++) {
      const slot = stored.documentSlots[i]!;
      if (!this.#storedDead[slot]) slots.push(slot);
    }
    return slots;
  }
}
