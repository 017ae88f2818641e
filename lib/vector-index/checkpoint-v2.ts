import { fastCrc32 } from "./kernel/crc.ts";
import { jsonBatches, keySections, planJsonKeys, planKeyColumns } from "./checkpoint-keys.ts";
import {
  type NamespaceEntry,
  type Section,
  SectionDamage,
  type SectionWriter,
} from "./checkpoint-section.ts";
import { DenseVectors, type DenseVectorsView } from "./dense-vectors.ts";
import type { PendingRows } from "./dense-rows.ts";
import { countLiveEntries, flattenPostings, type Renumbering } from "./postings.ts";
import type { NamespaceSnapshot, NamespaceView } from "./snapshot.ts";
import { type RandomAccess, storedRowBytes, StoredRows, StoredTexts } from "./stored-rows.ts";
import { postingCrcs, StoredPostings } from "./stored-postings.ts";
import { TextColumn } from "./text-column.ts";

/*
 * Checkpoint format 2: each array of the index in one section of its own,
 * so a load reads every array a search scans (postings, int8 rows, bit
 * codes, lengths) with one read straight into its final buffer, and leaves
 * what a search reads only for a few chunks (the residual rows, the texts)
 * in the file, read by position when asked for.
 *
 *   "SIFTCKP2"                         8 bytes
 *   sections, each 8-aligned           raw arrays, little-endian
 *   directory                          JSON: per namespace its sizes and sections
 *   u32 directory length, u32 its CRC-32, "SIFTEND2"
 *
 * Every section has a CRC-32, checked when the section is read at load (the
 * int8 rows, their scales and the bit codes in the background just after);
 * the residual rows, the texts and (format 3) the metadata also have one per
 * row and per entry, checked when each is read, and the metadata's section
 * CRC is not checked at load. The term postings also have one per term (the
 * `termCrcs` section, since #30's deferred load). A file without its end (a
 * write cut short) is not a checkpoint.
 *
 * A load that replays no log may read the large sections a search can do
 * without for a while (`Fill.background`, from `DEFER_FROM_BYTES`) after the
 * index serves: until each is in and checked, a search reads what it needs
 * of it from the file by position (`PendingRows`, `StoredPostings`, the
 * metadata's entries), and writes and listings wait.
 *
 * Directory format 3 (written now; same container) stores ids, metadata and
 * documents as columns (`keySections`): a load reads them into buffers and
 * decodes an entry only when it is asked for, and the id → slot and document
 * → slots lookups are hash tables in the file, not `Map`s built per chunk.
 * The bit codes' packed prefixes are a section too. Directory format 2 (ids
 * and metadata as JSON arrays of up to 4,096 entries, u32 length first) and
 * format 1 (`checkpoint.ts`, frames) still load.
 */

export { type Section, SectionDamage };

export const FORMAT_2_MAGIC = "SIFTCKP2";
const END_MAGIC = "SIFTEND2";
export const FOOTER_BYTES = 16;
const BATCH = 4096;
const ROWS_PER_PIECE = 1024;

export type Directory = { format: 2 | 3; generation: number; namespaces: NamespaceEntry[] };

const encoder = new TextEncoder();
const bytesOf = (array: ArrayBufferView) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** A checkpoint in format 2, piece by piece: writing one costs only what it writes. */
export function* checkpointSections(
  namespaces: Map<string, NamespaceView>,
  generation: number,
): Generator<Uint8Array> {
  let at = 0;
  const directory: Directory = { format: 3, generation, namespaces: [] };
  function* put(bytes: Uint8Array) {
    at += bytes.length;
    yield bytes;
  }
  yield* put(encoder.encode(FORMAT_2_MAGIC));
  /** One section from its pieces (padded to 8 before it), recorded in `sections`. */
  function* section(
    sections: Record<string, Section>,
    name: string,
    pieces: Iterable<Uint8Array>,
  ) {
    if (at % 8) yield* put(new Uint8Array(8 - (at % 8)));
    const start = at;
    let crc = 0;
    for (const piece of pieces) {
      crc = fastCrc32(piece, crc);
      yield* put(piece);
    }
    sections[name] = { at: start, bytes: at - start, crc };
  }
  for (const [namespace, view] of namespaces) {
    const live: number[] = [];
    const renumbered = new Int32Array(view.slotCount).fill(-1);
    for (let slot = 0; slot < view.slotCount; slot++) {
      if (view.alive[slot]) renumbered[slot] = live.push(slot) - 1;
    }
    // Every slot alive (nothing removed or replaced since the last rebuild): postings are
    // copied whole instead of renumbered entry by entry.
    const renumbering = live.length === view.slotCount ? undefined : renumbered;
    // Now, with `live`: slots may die while the sections before the documents' are written.
    const documents = view.keys.documentsOf(live);
    const terms = view.terms.map(({ slots, counts, length }) => ({
      slots,
      values: counts,
      length,
    }));
    const vectors = view.vectors;
    const dims = vectors ? [] : view.dims;
    const sections: Record<string, Section> = {};
    const entry: NamespaceEntry = {
      namespace,
      dimensions: view.dimensions,
      count: live.length,
      terms: terms.length,
      termEntries: countLiveEntries(terms, renumbering),
      dimEntries: countLiveEntries(dims, renumbering),
      sections,
    };
    yield* section(sections, "lengths", [
      bytesOf(Uint32Array.from(live, (slot) => view.lengths[slot]!)),
    ]);
    yield* section(sections, "terms", [
      encoder.encode(view.terms.map((term) => term.term).join(" ")),
    ]);
    yield* postingSections(section, sections, "term", terms, renumbering, "u16");
    if (!vectors) {
      yield* postingSections(section, sections, "dim", dims, renumbering, "f32");
    } else {
      const { rows, bits } = vectors;
      entry.dense = {
        stride: rows.stride,
        codeStride: bits?.stride ?? 0,
        codes: bits?.mean.length ?? 0,
      };
      if (bits) yield* section(sections, "mean", [bytesOf(bits.mean)]);
      yield* section(
        sections,
        "rowCodes",
        rowPieces(live, rows.stride, (s) => rows.codes(s, s + 1)),
      );
      yield* section(sections, "rowScales", [
        bytesOf(Float32Array.from(live, (slot) => rows.scale(slot))),
      ]);
      if (bits) {
        yield* section(
          sections,
          "bitCodes",
          rowPieces(live, bits.stride, (s) => bits.codes(s, s + 1)),
        );
      }
      if (bits?.hasPrefixes) {
        yield* section(
          sections,
          "bitPrefixes",
          rowPieces(live, bits.prefixes(0, 1).length, (s) => bits.prefixes(s, s + 1)),
        );
      }
      yield* section(sections, "residuals", residualPieces(live, vectors));
    }
    // Texts: the bytes, then offsets (f64: past 4 GB of text) and a CRC per text.
    const textOffsets = new Float64Array(live.length + 1);
    const textCrcs = new Uint32Array(live.length);
    yield* section(
      sections,
      "texts",
      (function* () {
        for (let from = 0; from < live.length; from += BATCH) {
          const slots = live.slice(from, from + BATCH);
          const { bytes, offsets } = view.texts.encode(slots);
          for (let i = 0; i < slots.length; i++) {
            textOffsets[from + i + 1] = textOffsets[from]! + offsets[i + 1]!;
            textCrcs[from + i] = fastCrc32(bytes.subarray(offsets[i]!, offsets[i + 1]!));
          }
          yield bytes;
        }
      })(),
    );
    yield* section(sections, "textOffsets", [bytesOf(textOffsets)]);
    yield* section(sections, "textCrcs", [bytesOf(textCrcs)]);
    if (view.keys.wellFormed) {
      entry.documents = documents.ids.length;
      yield* keySections(section, sections, view.keys, live, documents);
    } else {
      // A lone surrogate in an id would not survive UTF-8: these keys go as format 2's JSON.
      yield* section(sections, "ids", jsonBatches(live, (slot) => view.keys.id(slot)));
      yield* section(sections, "metadata", jsonBatches(live, (slot) => view.keys.metadata(slot)));
    }
    directory.namespaces.push(entry);
  }
  const json = encoder.encode(JSON.stringify(directory));
  const footer = new Uint8Array(FOOTER_BYTES);
  const view = new DataView(footer.buffer);
  view.setUint32(0, json.length, true);
  view.setUint32(4, fastCrc32(json), true);
  footer.set(encoder.encode(END_MAGIC), 8);
  yield* put(json);
  yield* put(footer);
}

type PostingLike = { slots: Uint32Array; values: Uint16Array | Float32Array; length: number };

/** Postings as offsets, slots and values sections, flattened a batch at a time. */
function* postingSections(
  section: SectionWriter,
  sections: Record<string, Section>,
  prefix: "term" | "dim",
  postings: readonly (PostingLike | undefined)[],
  renumbered: Renumbering,
  values: "u16" | "f32",
) {
  const make = (size: number): Uint16Array | Float32Array =>
    values === "u16" ? new Uint16Array(size) : new Float32Array(size);
  // Each posting also gets a CRC (slots, then values): a load reads a term or a dimension a search
  // needs by position, checked on its own, while the sections are still being read whole.
  const crcs = postingCrcs(postings.length);
  const batches = function* (part: "offsets" | "slots" | "values") {
    let base = 0;
    for (let from = 0; from < postings.length; from += BATCH) {
      const batch = flattenPostings(
        postings.slice(from, from + BATCH),
        renumbered,
        make,
        part,
      );
      if (part === "offsets") {
        const offsets = batch.offsets.map((offset) => offset + base);
        // Each batch's last offset is the next one's first: written once, at the very end.
        yield bytesOf(offsets.subarray(0, offsets.length - 1));
      } else {
        const values = part === "slots" ? batch.slots : batch.values;
        crcs.add(from, batch.offsets, values);
        yield bytesOf(values);
      }
      base += batch.total;
    }
    if (part === "offsets") yield bytesOf(Uint32Array.of(base));
  };
  yield* section(sections, `${prefix}Offsets`, batches("offsets"));
  yield* section(sections, `${prefix}Slots`, batches("slots"));
  yield* section(sections, `${prefix}Values`, batches("values"));
  yield* section(sections, `${prefix}Crcs`, [bytesOf(crcs.crcs)]);
}

/** Live rows copied out `ROWS_PER_PIECE` at a time (a view into memory that may grow must not be written). */
function* rowPieces(live: number[], stride: number, row: (slot: number) => ArrayBufferView) {
  for (let from = 0; from < live.length; from += ROWS_PER_PIECE) {
    const slots = live.slice(from, from + ROWS_PER_PIECE);
    const piece = new Uint8Array(slots.length * stride);
    slots.forEach((slot, i) => piece.set(bytesOf(row(slot)), i * stride));
    yield piece;
  }
}

/** Each residual row as stored: codes, scale, CRC of both. */
function* residualPieces(live: number[], vectors: DenseVectorsView) {
  const { residuals } = vectors;
  const size = storedRowBytes(residuals.stride);
  for (let from = 0; from < live.length; from += ROWS_PER_PIECE) {
    const slots = live.slice(from, from + ROWS_PER_PIECE);
    const piece = new Uint8Array(slots.length * size);
    const view = new DataView(piece.buffer);
    const copy = () =>
      slots.forEach((slot, i) => {
        const at = i * size;
        piece.set(bytesOf(residuals.codes(slot, slot + 1)), at);
        view.setFloat32(at + residuals.stride, residuals.scale(slot), true);
        view.setUint32(at + size - 4, fastCrc32(piece.subarray(at, at + size - 4)), true);
      });
    // Rows still in the loaded checkpoint's file: one open for the piece, not one per row.
    if (residuals.batch) residuals.batch(copy);
    else copy();
    yield piece;
  }
}

/** Whether a file's first bytes are format 2's. */
export function isFormat2(head: Uint8Array): boolean {
  return head.length >= 8 && new TextDecoder().decode(head.subarray(0, 8)) === FORMAT_2_MAGIC;
}

/** The directory's length and CRC from the file's last 16 bytes (`size`: the file's). */
export function readFooter(
  footer: Uint8Array,
  size: number,
): { at: number; bytes: number; crc: number } {
  const view = new DataView(footer.buffer, footer.byteOffset, FOOTER_BYTES);
  if (
    footer.length !== FOOTER_BYTES ||
    new TextDecoder().decode(footer.subarray(8)) !== END_MAGIC
  ) throw new SectionDamage("no end: the file was cut short", Math.max(0, size - FOOTER_BYTES));
  const bytes = view.getUint32(0, true);
  const at = size - FOOTER_BYTES - bytes;
  if (at < 8) {
    throw new SectionDamage("the directory's length is out of range", size - FOOTER_BYTES);
  }
  return { at, bytes, crc: view.getUint32(4, true) };
}

export function parseDirectory(bytes: Uint8Array, crc: number, at: number): Directory {
  if (fastCrc32(bytes) !== crc) throw new SectionDamage("the directory fails its checksum", at);
  const directory = JSON.parse(new TextDecoder().decode(bytes)) as Directory;
  if ((directory.format !== 2 && directory.format !== 3) || !Array.isArray(directory.namespaces)) {
    throw new SectionDamage("the directory is not format 2's", at);
  }
  return directory;
}

/**
 * Sections of at least this many bytes that a search can do without for a
 * while are read after the index serves (`Fill.background`). Deferring costs
 * something (a search reads its rows and terms by position until they are
 * in, and writes wait for the load): it pays where reading the section would
 * hold up the start, at about 4 ms a MB here (fresh memory's first touch).
 */
export const DEFER_FROM_BYTES = 8 << 20;

/** A section to read into `into` (its final buffer, or a scratch one `finish` parses). */
export type Fill = {
  name: string;
  section: Section;
  into: Uint8Array;
  /**
   * Set on the dense layout's int8 rows, scales and bit codes (the bulk of a
   * load): their CRC may be checked after the load, in the background, over
   * the bytes this returns then (a fresh view: the memory may have grown).
   */
  later?: () => Uint8Array;
  /** Set on the metadata column: each entry has a CRC of its own, checked when it is read. */
  perEntry?: boolean;
  /**
   * Set on large sections a search can do without for a while (the int8
   * rows, the bit codes and their prefixes, the term postings of a
   * checkpoint with a CRC per term, the metadata, the documents): a load that
   * replays no log may read them after the index serves, then check each
   * whole (the metadata entry by entry, when read) and call this. Until then
   * the index reads what a search needs by position. What it returns is
   * awaited before the loader reads on (work derived from the section).
   */
  background?: () => void | Promise<void>;
};

/**
 * What loading one namespace takes: `fills`, each a section and the buffer
 * to read it into whole (then check its CRC with `checkFill`); after all are
 * read, `finish` makes the snapshot. The residual rows and the texts are not
 * filled: they stay in `file`, read by position when asked for.
 */
export function planNamespace(
  entry: NamespaceEntry,
  file: RandomAccess,
  options: { deferFromBytes?: number } = {},
): {
  fills: Fill[];
  /** The sections a search reads by position (the residual rows, the texts): worth warming. */
  byPosition: Section[];
  finish(): NamespaceSnapshot;
} {
  const deferFrom = options.deferFromBytes ?? DEFER_FROM_BYTES;
  const fills: Fill[] = [];
  const section = (name: string, expected?: number) => {
    const found = entry.sections[name];
    if (!found || (expected !== undefined && found.bytes !== expected)) {
      throw new SectionDamage(
        `${entry.namespace}'s section ${name} is missing or of the wrong size`,
        found?.at ?? 0,
      );
    }
    return found;
  };
  const fill = <A extends ArrayBufferView>(
    name: string,
    into: A,
    scratch = false,
    later?: () => Uint8Array,
    perEntry = false,
    background?: () => void | Promise<void>,
  ): A => {
    const bytes = bytesOf(into);
    fills.push({
      name,
      section: section(name, scratch ? undefined : bytes.length),
      into: bytes,
      ...(later ? { later } : {}),
      ...(perEntry ? { perEntry } : {}),
      ...(background ? { background } : {}),
    });
    return into;
  };
  const { count, dimensions, dense } = entry;
  const lengths = fill("lengths", new Uint32Array(count));
  const termsText = fill("terms", new Uint8Array(section("terms").bytes), true);
  const termOffsets = fill("termOffsets", new Uint32Array(entry.terms + 1));
  const termSlots = new Uint32Array(entry.termEntries);
  const termCounts = new Uint16Array(entry.termEntries);
  let storedPostings: StoredPostings | undefined;
  const postingBytes = (entry.sections.termSlots?.bytes ?? 0) +
    (entry.sections.termValues?.bytes ?? 0);
  if (entry.sections.termCrcs && postingBytes >= deferFrom) {
    const crcs = fill("termCrcs", new Uint32Array(entry.terms));
    const stored = new StoredPostings(termOffsets, termSlots, termCounts, crcs, {
      slots: section("termSlots").at,
      counts: section("termValues").at,
    }, file);
    let read = 0;
    const both = () => {
      if (++read === 2) stored.done = true;
    };
    fill("termSlots", termSlots, false, undefined, false, both);
    fill("termValues", termCounts, false, undefined, false, both);
    storedPostings = stored;
  } else {
    fill("termSlots", termSlots);
    fill("termValues", termCounts);
  }
  let dimOffsets = new Uint32Array(dimensions + 1);
  let dimSlots = new Uint32Array(0);
  let dimValues = new Float32Array(0);
  let storedDims: StoredPostings | undefined;
  let vectors: DenseVectors | undefined;
  let pendingRows: PendingRows | undefined;
  let pendingCodes: PendingRows | undefined;
  if (!dense) {
    dimOffsets = fill("dimOffsets", dimOffsets);
    dimSlots = new Uint32Array(entry.dimEntries);
    dimValues = new Float32Array(entry.dimEntries);
    const dimBytes = (entry.sections.dimSlots?.bytes ?? 0) + (entry.sections.dimValues?.bytes ?? 0);
    // Deferred as the term postings are (checkpoints since #44 hold a CRC per dimension): at 300k
    // one-chunk documents with the offline model's vectors they are a third of the checkpoint, and
    // read before serving they made a restart grow with the index.
    if (entry.sections.dimCrcs && dimBytes >= deferFrom) {
      const crcs = fill("dimCrcs", new Uint32Array(dimensions));
      const stored = new StoredPostings(
        dimOffsets,
        dimSlots,
        dimValues,
        crcs,
        {
          slots: section("dimSlots").at,
          counts: section("dimValues").at,
        },
        file,
        "dimension",
      );
      let read = 0;
      const both = () => {
        if (++read === 2) stored.done = true;
      };
      fill("dimSlots", dimSlots, false, undefined, false, both);
      fill("dimValues", dimValues, false, undefined, false, both);
      storedDims = stored;
    } else {
      fill("dimSlots", dimSlots);
      fill("dimValues", dimValues);
    }
  } else {
    const mean = dense.codes
      ? fill("mean", new Float32Array(dense.codes)) as Float32Array
      : undefined;
    const residuals = section("residuals", count * storedRowBytes(dense.stride));
    // The mean is read in later, into this same array: the bit codes keep it as given.
    vectors = DenseVectors.empty(
      dimensions,
      count,
      mean,
      new StoredRows(dimensions, count, residuals.at, file),
    );
    if (
      vectors.rows.stride !== dense.stride || (vectors.bits?.stride ?? 0) !== dense.codeStride ||
      (mean && vectors.bits?.mean !== mean)
    ) {
      throw new SectionDamage(`${entry.namespace}'s rows do not fit its layout`, residuals.at);
    }
    const { rows, bits } = vectors;
    const loaded = rows.loadInto(count);
    // Damage here only shifts scores (no id, text or slot number comes from these bytes): the
    // rows a search scores before the loader has read them all are read from the file unchecked.
    // A section a search reads from the file, by its own offsets, until the loader has it in.
    const stillInFile = (name: string): PendingRows => {
      const from = section(name).at;
      return { done: false, read: (at, into) => file.batch(() => file.readSync(from + at, into)) };
    };
    if (loaded.codes.byteLength >= deferFrom) {
      const pending = stillInFile("rowCodes");
      fill("rowCodes", loaded.codes, false, undefined, false, () => {
        pending.done = true;
      });
      pendingRows = pending;
    } else fill("rowCodes", loaded.codes, false, () => bytesOf(rows.codes(0, count)));
    fill("rowScales", loaded.scales, false, () => bytesOf(rows.loadInto(count).scales));
    if (bits) {
      const codes = bits.loadInto(count);
      // Deferred only with their prefixes stored: otherwise the prefixes are copied from them.
      if (codes.length >= deferFrom && (!bits.hasPrefixes || entry.sections.bitPrefixes)) {
        const pending = stillInFile("bitCodes");
        fill("bitCodes", codes, false, undefined, false, () => {
          pending.done = true;
          return bits.derivePending();
        });
        pendingCodes = pending;
      } else fill("bitCodes", codes, false, () => bits.codes(0, count));
    }
    if (bits?.hasPrefixes && entry.sections.bitPrefixes) {
      const prefixes = bits.loadPrefixesInto(count);
      if (prefixes.length >= deferFrom) {
        fill("bitPrefixes", prefixes, false, undefined, false, bits.prefixesLater());
      } else fill("bitPrefixes", prefixes, false, () => bits.prefixes(0, count));
    }
  }
  const textOffsets = fill("textOffsets", new Float64Array(count + 1));
  const textCrcs = fill("textCrcs", new Uint32Array(count));
  const keys = entry.documents === undefined
    ? planJsonKeys(entry, fill, section)
    : planKeyColumns(entry, fill, section, file, deferFrom);
  const texts = section("texts");
  return {
    fills,
    byPosition: [...(dense ? [section("residuals")] : []), texts],
    finish() {
      if (pendingRows && !pendingRows.done) vectors?.rows.adoptLater(count, pendingRows);
      else vectors?.rows.adopt(count);
      if (pendingCodes && !pendingCodes.done) vectors?.bits?.codesLater(count, pendingCodes);
      vectors?.bits?.adopt(count, entry.sections.bitPrefixes !== undefined);
      if (textOffsets[count] !== texts.bytes) {
        throw new SectionDamage(`${entry.namespace}'s texts do not fit their offsets`, texts.at);
      }
      const decoded = new TextDecoder().decode(termsText);
      const snapshot: NamespaceSnapshot = {
        dimensions,
        keys: keys(),
        texts: new TextColumn(undefined, new StoredTexts(texts.at, textOffsets, textCrcs, file)),
        lengths,
        terms: decoded === "" ? [] : decoded.split(" "),
        termOffsets,
        termSlots,
        termCounts,
        ...(storedPostings && !storedPostings.done ? { storedPostings } : {}),
        dimOffsets,
        dimSlots,
        dimValues,
        ...(storedDims && !storedDims.done ? { storedDims } : {}),
        ...(vectors ? { vectors } : {}),
      };
      if (snapshot.keys.length !== count || snapshot.terms.length !== entry.terms) {
        throw new SectionDamage(`${entry.namespace} is incomplete`, section("ids").at);
      }
      return snapshot;
    },
  };
}

/** Throws where a filled section's bytes fail its CRC. */
export function checkFill(fill: Fill): void {
  if (fill.perEntry) return;
  if (fastCrc32(fill.into) !== fill.section.crc) {
    throw new SectionDamage(`the section ${fill.name} fails its checksum`, fill.section.at);
  }
}

/** How much a background check takes in one turn of the event loop. */
const CHECK_SLICE = 4 << 20;

/**
 * Checks the CRCs of the `later` fills a slice at a time, yielding between
 * slices, so a load's requests are served meanwhile. Rejects with the
 * section's damage.
 */
export async function checkLater(fills: Fill[]): Promise<void> {
  for (const fill of fills) {
    let crc = 0;
    const size = fill.section.bytes;
    for (let at = 0; at < size; at += CHECK_SLICE) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      crc = fastCrc32(fill.later!().subarray(at, Math.min(size, at + CHECK_SLICE)), crc);
    }
    if (crc !== fill.section.crc) {
      throw new SectionDamage(`the section ${fill.name} fails its checksum`, fill.section.at);
    }
  }
}

/** A format-2 checkpoint held in memory, read whole (tests; the Deno loader reads by section). */
export function readCheckpointV2(
  bytes: Uint8Array,
  file = "memory",
): { generation: number; namespaces: Map<string, NamespaceSnapshot> } {
  const footer = readFooter(bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
  const directory = parseDirectory(
    bytes.subarray(footer.at, footer.at + footer.bytes),
    footer.crc,
    footer.at,
  );
  const access: RandomAccess = {
    file,
    readSync(at, into) {
      into.set(bytes.subarray(at, at + into.length));
    },
    batch: (work) => work(),
  };
  const namespaces = new Map<string, NamespaceSnapshot>();
  for (const entry of directory.namespaces) {
    const plan = planNamespace(entry, access);
    for (const fill of plan.fills) {
      const { at, bytes: size } = fill.section;
      if (at + size > footer.at) {
        throw new SectionDamage(`section ${fill.name} runs past the end`, at);
      }
      fill.into.set(bytes.subarray(at, at + size));
      checkFill(fill);
      fill.background?.();
    }
    namespaces.set(entry.namespace, plan.finish());
  }
  return { generation: directory.generation, namespaces };
}
