import { fastCrc32 } from "./kernel/crc.ts";
import type { ChunkMetadata } from "./types.ts";
import { DenseVectors, type DenseVectorsView } from "./dense-vectors.ts";
import { countLiveEntries, flattenPostings } from "./postings.ts";
import type { NamespaceSnapshot, NamespaceView } from "./snapshot.ts";
import { TextColumn } from "./text-column.ts";
import { SlotKeys } from "./slot-keys.ts";
import { isFormat2, readCheckpointV2 } from "./checkpoint-v2.ts";

/*
 * Format 1 of a checkpoint (format 2, `checkpoint-v2.ts`, is what sift
 * writes now; format 1 is still read, and written by tests' in-memory log):
 * the whole index as frames (u32 length, u32 CRC-32, payload;
 * the payload a u32 JSON length, the JSON, then binary arrays padded to 4).
 * Per namespace: a "namespace" frame (sizes, and each chunk's length), then
 * "terms" frames (a batch of terms and their postings), "dims" frames (a batch
 * of dimensions and theirs) and "slots" frames (ids, texts, metadata), each
 * small, so writing one never copies the index and no JSON string grows with
 * it; last an "end" frame. A checkpoint without its end frame is not one. A
 * namespace in the dense layout has "rows" frames instead of "dims": its
 * int8 rows, their residuals' and their bit codes, as they sit in memory, so a load
 * copies bytes and parses nothing (the bit codes' mean is in its namespace
 * frame).
 */

const SLOTS_PER_FRAME = 4096;
const TERMS_PER_FRAME = 4096;
const DIMS_PER_FRAME = 256;
const ROWS_PER_FRAME = 1024;

type NamespaceHeader = {
  kind: "namespace";
  namespace: string;
  dimensions: number;
  count: number;
  terms: number;
  termEntries: number;
  dimEntries: number;
  /** The dense layout: "rows" frames follow; `codes` is the width of their bit codes' mean (after lengths). */
  layout?: "rows";
  codes?: number;
};
type TermsHeader = { kind: "terms"; namespace: string; terms: string; entries: number };
type DimsHeader = { kind: "dims"; namespace: string; from: number; count: number; entries: number };
/** A batch of dense rows: int8 codes (`stride` bytes each) and scales, the same for their residuals, and bit codes if any. */
type RowsHeader = {
  kind: "rows";
  namespace: string;
  count: number;
  stride: number;
  codeStride: number;
};
/**
 * A batch of slots: ids and metadata as JSON, texts as UTF-8 bytes after it
 * (`textCount + 1` offsets, then the bytes), so a load never parses them.
 * Checkpoints written before that carry `texts` as JSON strings instead.
 */
type SlotsHeader = {
  kind: "slots";
  namespace: string;
  ids: string[];
  metadata: ChunkMetadata[];
  texts?: string[];
  textBytes?: number;
};
type EndHeader = { kind: "end"; generation: number; namespaces: number };
type Header = NamespaceHeader | TermsHeader | DimsHeader | RowsHeader | SlotsHeader | EndHeader;

const padded = (bytes: number) => (bytes + 3) & ~3;

function frame(header: Header, arrays: ArrayBufferView[] = []): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const size = 4 + padded(json.length) +
    arrays.reduce((sum, array) => sum + padded(array.byteLength), 0);
  const bytes = new Uint8Array(8 + size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, size, true);
  view.setUint32(8, json.length, true);
  bytes.set(json, 12);
  let at = 12 + padded(json.length);
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += padded(array.byteLength);
  }
  view.setUint32(4, fastCrc32(bytes.subarray(8)), true);
  return bytes;
}

type Posting = { slots: Uint32Array; values: Uint16Array | Float32Array; length: number };

/** The frames of a checkpoint, made one at a time: writing one costs only what it writes. */
export function* checkpointFrames(
  namespaces: Map<string, NamespaceView>,
  generation: number,
): Generator<Uint8Array> {
  for (const [namespace, view] of namespaces) {
    // Live slots are numbered once, here; everything after uses these numbers.
    const renumbered = new Int32Array(view.slotCount).fill(-1);
    const live: number[] = [];
    for (let slot = 0; slot < view.slotCount; slot++) {
      if (view.alive[slot]) renumbered[slot] = live.push(slot) - 1;
    }
    const count = (postings: (Posting | undefined)[]) => countLiveEntries(postings, renumbered);
    const terms = view.terms.map(({ slots, counts, length }) => ({
      slots,
      values: counts,
      length,
    }));
    const vectors = view.vectors;
    const mean = vectors?.bits?.mean;
    yield frame({
      kind: "namespace",
      namespace,
      dimensions: view.dimensions,
      count: live.length,
      terms: view.terms.length,
      termEntries: count(terms),
      dimEntries: count(view.dims),
      ...(vectors ? { layout: "rows" as const, codes: mean?.length ?? 0 } : {}),
    }, [Uint32Array.from(live, (slot) => view.lengths[slot]!), ...(mean ? [mean] : [])]);
    for (let from = 0; from < terms.length; from += TERMS_PER_FRAME) {
      const batch = flattenPostings(
        terms.slice(from, from + TERMS_PER_FRAME),
        renumbered,
        (size) => new Uint16Array(size),
      );
      yield frame({
        kind: "terms",
        namespace,
        terms: view.terms.slice(from, from + TERMS_PER_FRAME).map((entry) => entry.term).join(" "),
        entries: batch.total,
      }, [batch.offsets, batch.slots, batch.values]);
    }
    for (let from = 0; from < view.dimensions; from += DIMS_PER_FRAME) {
      const postings = view.dims.slice(from, from + DIMS_PER_FRAME);
      const batch = flattenPostings(postings, renumbered, (size) => new Float32Array(size));
      yield frame({
        kind: "dims",
        namespace,
        from,
        count: postings.length,
        entries: batch.total,
      }, [batch.offsets, batch.slots, batch.values]);
    }
    if (vectors) yield* rowsFrames(namespace, vectors, live);
    for (let from = 0; from < live.length; from += SLOTS_PER_FRAME) {
      const slots = live.slice(from, from + SLOTS_PER_FRAME);
      const texts = view.texts.encode(slots);
      yield frame({
        kind: "slots",
        namespace,
        ids: slots.map((slot) => view.keys.id(slot)),
        metadata: slots.map((slot) => view.keys.metadata(slot)),
        textBytes: texts.bytes.length,
      }, [texts.offsets, texts.bytes]);
    }
  }
  yield frame({ kind: "end", generation, namespaces: namespaces.size });
}

/** The live rows in frames of `ROWS_PER_FRAME`, copied from the vectors' memory. */
function* rowsFrames(namespace: string, vectors: DenseVectorsView, live: number[]) {
  const { rows, residuals, bits } = vectors;
  const codeStride = bits?.stride ?? 0;
  for (let from = 0; from < live.length; from += ROWS_PER_FRAME) {
    const slots = live.slice(from, from + ROWS_PER_FRAME);
    const codes = new Int8Array(slots.length * rows.stride);
    const scales = new Float32Array(slots.length);
    const residualCodes = new Int8Array(slots.length * rows.stride);
    const residualScales = new Float32Array(slots.length);
    const bitCodes = new Uint8Array(slots.length * codeStride);
    slots.forEach((slot, i) => {
      codes.set(rows.codes(slot, slot + 1), i * rows.stride);
      scales[i] = rows.scale(slot);
      residualCodes.set(residuals.codes(slot, slot + 1), i * rows.stride);
      residualScales[i] = residuals.scale(slot);
      if (bits) bitCodes.set(bits.codes(slot, slot + 1), i * codeStride);
    });
    yield frame(
      { kind: "rows", namespace, count: slots.length, stride: rows.stride, codeStride },
      [codes, scales, residualCodes, residualScales, bitCodes],
    );
  }
}

type Building = NamespaceSnapshot & {
  /** Ids and metadata read so far (`keys` is made of them after the end frame). */
  ids: string[];
  metadata: ChunkMetadata[];
  termAt: number;
  termEntryAt: number;
  /** Each slots frame's texts (views into the file until the end frame copies them once). */
  textParts: { bytes: Uint8Array; offsets: Uint32Array }[];
  /** Texts of a checkpoint from before texts were stored as bytes. */
  jsonTexts: string[];
  /** Dense rows read so far. */
  rowAt: number;
};

/** The slots frames' texts as one column: one buffer, one copy, nothing left pinning the file. */
function joinTexts(building: Building): TextColumn {
  if (building.jsonTexts.length > 0) return TextColumn.of(building.jsonTexts);
  const count = building.textParts.reduce((sum, part) => sum + part.offsets.length - 1, 0);
  const total = building.textParts.reduce((sum, part) => sum + part.bytes.length, 0);
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(count + 1);
  let slot = 0;
  let base = 0;
  for (const part of building.textParts) {
    bytes.set(part.bytes, base);
    for (let i = 1; i < part.offsets.length; i++) offsets[++slot] = base + part.offsets[i]!;
    base += part.bytes.length;
  }
  return new TextColumn({ bytes, offsets });
}

/**
 * Reads a checkpoint (either format) into flat arrays, one allocation per array. Every
 * frame's checksum is verified and the end frame must be there; anything
 * else is damage, reported, never half-loaded.
 */
export function readCheckpoint(
  bytes: Uint8Array,
): { generation: number; namespaces: Map<string, NamespaceSnapshot> } {
  if (isFormat2(bytes)) return readCheckpointV2(bytes);
  const reader = new CheckpointReader();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + 8 <= bytes.length) {
    const end = at + 8 + view.getUint32(at, true);
    if (end > bytes.length) throw damaged(`frame at ${at} is cut short`);
    if (reader.read(bytes.subarray(at, end), at)) {
      if (end !== bytes.length) throw damaged("the end frame does not close it");
      return reader.result();
    }
    at = end;
  }
  throw damaged("no end frame");
}

const damaged = (why: string) => new Error(`checkpoint damaged: ${why}`);

/**
 * A checkpoint read one frame at a time, so a file can be read while the
 * frames before are parsed (`FileIndexLog` reads the next frame while this
 * one is checked and copied). Feed frames in order to `read`; after the end
 * frame, `result` has the namespaces.
 */
export class CheckpointReader {
  readonly #namespaces = new Map<string, Building>();
  #generation: number | undefined;

  /**
   * One frame as written: its length and checksum, then its payload (kept as
   * views where texts are; copied elsewhere). `at`, its offset in the file,
   * names it in errors. True once the end frame is read.
   */
  read(frame: Uint8Array, at: number): boolean {
    if (this.#generation !== undefined) throw damaged(`frame at ${at} follows the end frame`);
    const namespaces = this.#namespaces;
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    if (frame.length < 12 || view.getUint32(0, true) !== frame.length - 8) {
      throw damaged(`frame at ${at} is cut short`);
    }
    const payload = frame.subarray(8);
    if (fastCrc32(payload) !== view.getUint32(4, true)) throw damaged(`frame at ${at}`);
    const jsonLength = view.getUint32(8, true);
    const header = JSON.parse(
      new TextDecoder().decode(payload.subarray(4, 4 + jsonLength)),
    ) as Header;
    // Views into the frame's bytes, no copy: every frame starts 4-aligned (sizes are padded),
    // and an unaligned one (a file read into an odd offset) is copied once.
    let binary = payload.subarray(4 + padded(jsonLength));
    if (binary.byteOffset % 4 !== 0) binary = binary.slice();
    let offset = 0;
    const take = <A extends Uint32Array | Uint16Array | Float32Array | Int8Array | Uint8Array>(
      make: new (buffer: ArrayBufferLike, offset: number, length: number) => A,
      length: number,
    ) => {
      const width = (make as unknown) === Uint16Array
        ? 2
        : (make as unknown) === Int8Array || (make as unknown) === Uint8Array
        ? 1
        : 4;
      if (offset + length * width > binary.byteLength) throw damaged(`frame at ${at} runs short`);
      const array = new make(binary.buffer, binary.byteOffset + offset, length);
      offset += padded(length * width);
      return array;
    };
    if (header.kind === "end") {
      if (header.namespaces !== namespaces.size) throw damaged("the end frame does not close it");
      for (const [name, snapshot] of namespaces) {
        snapshot.texts = joinTexts(snapshot);
        snapshot.keys = SlotKeys.of(snapshot.ids, snapshot.metadata);
        snapshot.textParts = [];
        snapshot.jsonTexts = [];
        if (
          snapshot.ids.length !== snapshot.lengths.length ||
          snapshot.texts.length !== snapshot.ids.length ||
          snapshot.termAt !== snapshot.terms.length ||
          snapshot.termEntryAt !== snapshot.termSlots.length ||
          (snapshot.vectors && snapshot.rowAt !== snapshot.ids.length)
        ) throw damaged(`${name} is incomplete`);
      }
      this.#generation = header.generation;
      return true;
    }
    if (header.kind === "namespace") {
      const lengths = take(Uint32Array, header.count).slice(); // a copy: a view would pin the file
      const mean = header.codes ? take(Float32Array, header.codes).slice() : undefined;
      namespaces.set(header.namespace, {
        ...(header.layout === "rows"
          ? { vectors: DenseVectors.empty(header.dimensions, header.count, mean) }
          : {}),
        rowAt: 0,
        dimensions: header.dimensions,
        ids: [],
        keys: new SlotKeys(),
        texts: new TextColumn(),
        textParts: [],
        jsonTexts: [],
        metadata: [],
        lengths,
        terms: new Array<string>(header.terms),
        termOffsets: new Uint32Array(header.terms + 1),
        termSlots: new Uint32Array(header.termEntries),
        termCounts: new Uint16Array(header.termEntries),
        dimOffsets: new Uint32Array(header.dimensions + 1),
        dimSlots: new Uint32Array(header.dimEntries),
        dimValues: new Float32Array(header.dimEntries),
        termAt: 0,
        termEntryAt: 0,
      });
      return false;
    }
    const snapshot = namespaces.get(header.namespace);
    if (!snapshot) throw damaged(`a frame of ${header.namespace} before its namespace frame`);
    if (header.kind === "terms") {
      const terms = header.terms === "" ? [] : header.terms.split(" ");
      const offsets = take(Uint32Array, terms.length + 1);
      const base = snapshot.termEntryAt;
      if (base + header.entries > snapshot.termSlots.length) throw damaged("too many terms");
      snapshot.termSlots.set(take(Uint32Array, header.entries), base);
      snapshot.termCounts.set(take(Uint16Array, header.entries), base);
      terms.forEach((term, i) => {
        snapshot.terms[snapshot.termAt] = term;
        snapshot.termOffsets[snapshot.termAt++] = base + offsets[i]!;
      });
      snapshot.termEntryAt += header.entries;
      snapshot.termOffsets[snapshot.termAt] = snapshot.termEntryAt;
    } else if (header.kind === "rows") {
      const vectors = snapshot.vectors;
      if (
        !vectors || header.stride !== vectors.rows.stride ||
        header.codeStride !== (vectors.bits?.stride ?? 0) ||
        snapshot.rowAt + header.count > snapshot.lengths.length
      ) throw damaged(`rows of ${header.namespace} do not fit its layout`);
      const codes = take(Int8Array, header.count * header.stride);
      const scales = take(Float32Array, header.count);
      const residualCodes = take(Int8Array, header.count * header.stride);
      const residualScales = take(Float32Array, header.count);
      const bitCodes = take(Uint8Array, header.count * header.codeStride);
      vectors.rows.setCodes(snapshot.rowAt, codes, scales);
      vectors.residuals.setCodes(snapshot.rowAt, residualCodes, residualScales);
      vectors.bits?.setCodes(snapshot.rowAt, bitCodes);
      snapshot.rowAt += header.count;
    } else if (header.kind === "dims") {
      const offsets = take(Uint32Array, header.count + 1);
      const base = snapshot.dimOffsets[header.from]!;
      if (base + header.entries > snapshot.dimSlots.length) throw damaged("too many entries");
      snapshot.dimSlots.set(take(Uint32Array, header.entries), base);
      snapshot.dimValues.set(take(Float32Array, header.entries), base);
      for (let i = 0; i <= header.count; i++) {
        snapshot.dimOffsets[header.from + i] = base + offsets[i]!;
      }
    } else {
      for (let i = 0; i < header.ids.length; i++) {
        snapshot.ids.push(header.ids[i]!);
        snapshot.metadata.push(header.metadata[i]!);
      }
      if (header.texts) snapshot.jsonTexts.push(...header.texts);
      else {
        const offsets = take(Uint32Array, header.ids.length + 1);
        const size = header.textBytes ?? 0;
        if (offset + size > binary.byteLength || offsets[header.ids.length] !== size) {
          throw damaged(`frame at ${at} runs short`);
        }
        snapshot.textParts.push({ offsets, bytes: binary.subarray(offset, offset + size) });
      }
    }
    return false;
  }

  result(): { generation: number; namespaces: Map<string, NamespaceSnapshot> } {
    if (this.#generation === undefined) throw damaged("no end frame");
    return { generation: this.#generation, namespaces: this.#namespaces };
  }
}
