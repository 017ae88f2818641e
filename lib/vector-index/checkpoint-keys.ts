import { crc32 } from "./crc32.ts";
import type { ChunkMetadata } from "./types.ts";
import { buildTable, hashBytes, KeyColumn, tableCells } from "./key-table.ts";
import { SlotKeys } from "./slot-keys.ts";
import {
  type NamespaceEntry,
  type Section,
  SectionDamage,
  type SectionWriter,
} from "./checkpoint-section.ts";
import type { RandomAccess } from "./stored-rows.ts";

/*
 * A checkpoint's ids, metadata and documents (`checkpoint-v2.ts` holds the
 * container): written and planned for a load, in directory format 3's
 * columns or format 2's JSON batches.
 */

const BATCH = 4096;
const encoder = new TextEncoder();
const bytesOf = (array: ArrayBufferView) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Values as JSON arrays of `BATCH`, each after its u32 byte length (format 2's ids and metadata). */
export function* jsonBatches(live: number[], value: (slot: number) => unknown) {
  for (let from = 0; from < live.length; from += BATCH) {
    const json = encoder.encode(JSON.stringify(live.slice(from, from + BATCH).map(value)));
    const piece = new Uint8Array(4 + json.length);
    new DataView(piece.buffer).setUint32(0, json.length, true);
    piece.set(json, 4);
    yield piece;
  }
}

/**
 * Ids, metadata and documents (format 3): each a column of bytes with f64
 * offsets; ids and document ids with a hash table (`key-table.ts`), the
 * documents' slots as ranges of one array, and a CRC per metadata entry.
 */
export function* keySections(
  section: SectionWriter,
  sections: Record<string, Section>,
  keys: SlotKeys,
  live: number[],
  documents: { ids: Uint8Array[]; offsets: Uint32Array; positions: Uint32Array },
) {
  const idHashes = new Uint32Array(live.length);
  const idOffsets = new Float64Array(live.length + 1);
  yield* section(
    sections,
    "ids",
    columnPieces(live.length, (i) => keys.idBytes(live[i]!), idOffsets, (i, bytes) => {
      idHashes[i] = hashBytes(bytes);
    }),
  );
  yield* section(sections, "idOffsets", [bytesOf(idOffsets)]);
  yield* section(sections, "idTable", [bytesOf(buildTable(live.length, (i) => idHashes[i]!))]);
  const metadataOffsets = new Float64Array(live.length + 1);
  const metadataCrcs = new Uint32Array(live.length);
  yield* section(
    sections,
    "metadata",
    columnPieces(live.length, (i) => keys.metadataBytes(live[i]!), metadataOffsets, (i, bytes) => {
      metadataCrcs[i] = crc32(bytes);
    }),
  );
  yield* section(sections, "metadataOffsets", [bytesOf(metadataOffsets)]);
  yield* section(sections, "metadataCrcs", [bytesOf(metadataCrcs)]);
  const documentOffsets = new Float64Array(documents.ids.length + 1);
  yield* section(
    sections,
    "documents",
    columnPieces(documents.ids.length, (d) => documents.ids[d]!, documentOffsets, () => {}),
  );
  yield* section(sections, "documentOffsets", [bytesOf(documentOffsets)]);
  yield* section(sections, "documentTable", [
    bytesOf(buildTable(documents.ids.length, (d) => hashBytes(documents.ids[d]!))),
  ]);
  yield* section(sections, "documentSlotOffsets", [bytesOf(documents.offsets)]);
  yield* section(sections, "documentSlots", [bytesOf(documents.positions)]);
}

/** Entries `0 .. count - 1` as one column, `BATCH` at a time; `offsets` filled, `each` told of each. */
function* columnPieces(
  count: number,
  entry: (i: number) => Uint8Array,
  offsets: Float64Array,
  each: (i: number, bytes: Uint8Array) => void,
) {
  for (let from = 0; from < count; from += BATCH) {
    const parts: Uint8Array[] = [];
    let size = 0;
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const bytes = entry(i);
      each(i, bytes);
      parts.push(bytes);
      size += bytes.length;
      offsets[i + 1] = offsets[i]! + bytes.length;
    }
    const piece = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      piece.set(part, at);
      at += part.length;
    }
    yield piece;
  }
}

export type Filler = <A extends ArrayBufferView>(
  name: string,
  into: A,
  scratch?: boolean,
  later?: () => Uint8Array,
  perEntry?: boolean,
  background?: () => void | Promise<void>,
) => A;
export type SectionOf = (name: string, expected?: number) => Section;

/** Format 2's ids and metadata: JSON batches, parsed whole at load. */
export function planJsonKeys(entry: NamespaceEntry, fill: Filler, section: SectionOf) {
  const ids = fill("ids", new Uint8Array(section("ids").bytes), true);
  const metadata = fill("metadata", new Uint8Array(section("metadata").bytes), true);
  return () =>
    SlotKeys.of(
      parseBatches<string>(ids, entry.namespace, section("ids").at),
      parseBatches<ChunkMetadata>(metadata, entry.namespace, section("metadata").at),
    );
}

/**
 * Format 3's key columns, read into buffers as they are: nothing is decoded
 * at load. Every section but the metadata's is checked whole at load (a
 * damaged id or table could make a lookup miss or a wrong id appear); the
 * metadata is checked an entry at a time, when it is first decoded.
 */
export function planKeyColumns(
  entry: NamespaceEntry,
  fill: Filler,
  section: SectionOf,
  file: RandomAccess,
  deferFrom: number,
) {
  const { count } = entry;
  const documentCount = entry.documents!;
  const ids = fill("ids", new Uint8Array(section("ids").bytes), true);
  const idOffsets = fill("idOffsets", new Float64Array(count + 1));
  const idTable = fill("idTable", new Uint32Array(tableCells(count)));
  // A large metadata column is read after the index serves: entries are read by position until.
  const metadataBytes = section("metadata").bytes;
  const metadataPending = metadataBytes >= deferFrom ? { done: false } : undefined;
  const metadata = fill(
    "metadata",
    new Uint8Array(metadataBytes),
    true,
    undefined,
    true,
    metadataPending && (() => {
      metadataPending.done = true;
    }),
  );
  const metadataOffsets = fill("metadataOffsets", new Float64Array(count + 1));
  const metadataCrcs = fill("metadataCrcs", new Uint32Array(count));
  // The documents' sections serve listings and writes, not searches: when large, they are read
  // after the index serves, and those wait for them.
  const documentSections = ["documents", "documentOffsets", "documentTable"]
    .concat(["documentSlotOffsets", "documentSlots"]);
  const documentBytes = documentSections.reduce((sum, name) => sum + section(name).bytes, 0);
  const documentsPending = documentBytes >= deferFrom ? { done: false } : undefined;
  let documentsRead = 0;
  const documentsFit = () =>
    KeyColumn.fits(documentColumn, documentTable) && documentSlotOffsets[documentCount] === count;
  const documentRead = documentsPending &&
    (() => {
      if (++documentsRead < documentSections.length) return;
      if (!documentsFit()) {
        throw new SectionDamage(
          `${entry.namespace}'s documents do not fit together`,
          section("documents").at,
        );
      }
      documentsPending.done = true;
    });
  const fillDocuments = <A extends ArrayBufferView>(name: string, into: A, scratch = false) =>
    fill(name, into, scratch, undefined, false, documentRead);
  const documents = fillDocuments("documents", new Uint8Array(section("documents").bytes), true);
  const documentOffsets = fillDocuments("documentOffsets", new Float64Array(documentCount + 1));
  const documentTable = fillDocuments("documentTable", new Uint32Array(tableCells(documentCount)));
  const documentSlotOffsets = fillDocuments(
    "documentSlotOffsets",
    new Uint32Array(documentCount + 1),
  );
  const documentSlots = fillDocuments("documentSlots", new Uint32Array(count));
  const documentColumn = { bytes: documents, offsets: documentOffsets };
  return () => {
    const idColumn = { bytes: ids, offsets: idOffsets };
    if (
      !KeyColumn.fits(idColumn, idTable) || metadataOffsets[count] !== metadata.length ||
      (!(documentsPending && !documentsPending.done) && !documentsFit())
    ) throw new SectionDamage(`${entry.namespace}'s keys do not fit together`, section("ids").at);
    return new SlotKeys({
      ids: new KeyColumn(idColumn, idTable),
      documents: new KeyColumn(documentColumn, documentTable),
      documentSlotOffsets,
      documentSlots,
      metadata: { bytes: metadata, offsets: metadataOffsets },
      metadataCrcs,
      metadataAt: section("metadata").at,
      source: file,
      ...(metadataPending && !metadataPending.done ? { metadataPending } : {}),
      ...(documentsPending && !documentsPending.done ? { documentsPending } : {}),
    });
  };
}

function parseBatches<T>(bytes: Uint8Array, namespace: string, at: number): T[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const out: T[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const length = view.getUint32(offset, true);
    const batch = JSON.parse(decoder.decode(bytes.subarray(offset + 4, offset + 4 + length)));
    if (!Array.isArray(batch)) throw new SectionDamage(`${namespace}'s ids or metadata`, at);
    for (const value of batch) out.push(value as T);
    offset += 4 + length;
  }
  return out;
}
