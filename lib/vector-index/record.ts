import { fastCrc32 } from "./kernel/crc.ts";
import type { PreparedChunk } from "./prepared.ts";

/**
 * One committed change to the embedded index: the documents in `remove` lose
 * every chunk, then the chunks in `put` are added (replacing same ids).
 * Replacing a document is one record, so it is durable whole or not at all.
 */
export type IndexRecord = { namespace: string; remove: string[]; put: PreparedChunk[] };

/*
 * On disk a record is a frame: u32 payload length, u32 CRC-32 of the
 * payload, the payload. The payload is a u32 header length, the header as
 * JSON (ids, texts, metadata, and the record's distinct terms once), then per
 * chunk its terms as u32 numbers into that list, their counts (u16), its
 * nonzero dimensions (u32) and values (f32), each block padded to 4 bytes. A
 * dense chunk (`dense: true`) has no dimension numbers: its values are every
 * dimension's, in order, at full float32 precision.
 * Vectors are binary: a JSON number costs about 10 bytes and a parse. Terms
 * are listed once per record so that loading hashes each distinct string
 * once, not once per chunk that has it.
 */

const FRAME_HEADER = 8;

/** A record's JSON header, as `isHeader` checks it. */
type Header = {
  namespace: string;
  remove: string[];
  /** The record's distinct terms, joined by spaces. */
  terms: string;
  put: {
    id: string;
    text: string;
    metadata: { doc_id: string; chunk_index: number; [field: string]: unknown };
    dimensions: number;
    nonzero: number;
    dense?: true;
    terms: number;
    length: number;
  }[];
};

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/**
 * Whether a parsed header has `Header`'s shape, checked by hand: a bulk build
 * decodes every record it writes, and a large log replays them all, where a
 * zod parse of thousands of chunk headers cost more than the JSON parse itself.
 */
function isHeader(value: unknown): value is Header {
  if (typeof value !== "object" || value === null) return false;
  const header = value as Record<string, unknown>;
  if (typeof header.namespace !== "string" || typeof header.terms !== "string") return false;
  const { remove, put } = header;
  if (!Array.isArray(remove) || !remove.every((id) => typeof id === "string")) return false;
  if (!Array.isArray(put)) return false;
  for (const chunk of put as Record<string, unknown>[]) {
    if (typeof chunk !== "object" || chunk === null) return false;
    const metadata = chunk.metadata as Record<string, unknown> | null;
    if (
      typeof chunk.id !== "string" || typeof chunk.text !== "string" ||
      typeof metadata !== "object" || metadata === null || Array.isArray(metadata) ||
      typeof metadata.doc_id !== "string" || typeof metadata.chunk_index !== "number" ||
      !isCount(chunk.dimensions) || !isCount(chunk.nonzero) || !isCount(chunk.terms) ||
      !isCount(chunk.length) || (chunk.dense !== undefined && chunk.dense !== true)
    ) return false;
  }
  return true;
}

const padded = (bytes: number) => (bytes + 3) & ~3;

export function encodeRecord(record: IndexRecord): Uint8Array {
  const numbers = new Map<string, number>();
  for (const chunk of record.put) {
    for (const term of chunk.terms) if (!numbers.has(term)) numbers.set(term, numbers.size);
  }
  const header = new TextEncoder().encode(JSON.stringify({
    namespace: record.namespace,
    remove: record.remove,
    terms: [...numbers.keys()].join(" "),
    put: record.put.map((chunk) => ({
      id: chunk.id,
      text: chunk.text,
      metadata: chunk.metadata,
      dimensions: chunk.dimensions,
      nonzero: chunk.values.length,
      ...(chunk.dense ? { dense: true } : {}),
      terms: chunk.terms.length,
      length: chunk.length,
    })),
  }));
  let size = 4 + padded(header.length);
  for (const chunk of record.put) {
    size += chunk.terms.length * 4 + padded(chunk.counts.length * 2) + chunk.dims.length * 4 +
      chunk.values.length * 4;
  }
  const frame = new Uint8Array(FRAME_HEADER + size);
  const view = new DataView(frame.buffer);
  view.setUint32(FRAME_HEADER, header.length, true);
  frame.set(header, FRAME_HEADER + 4);
  let at = FRAME_HEADER + 4 + padded(header.length);
  for (const chunk of record.put) {
    const termNumbers = Uint32Array.from(chunk.terms, (term) => numbers.get(term)!);
    frame.set(new Uint8Array(termNumbers.buffer), at);
    at += termNumbers.byteLength;
    frame.set(
      new Uint8Array(chunk.counts.buffer, chunk.counts.byteOffset, chunk.counts.byteLength),
      at,
    );
    at += padded(chunk.counts.byteLength);
    frame.set(new Uint8Array(chunk.dims.buffer, chunk.dims.byteOffset, chunk.dims.byteLength), at);
    at += chunk.dims.byteLength;
    frame.set(
      new Uint8Array(chunk.values.buffer, chunk.values.byteOffset, chunk.values.byteLength),
      at,
    );
    at += chunk.values.byteLength;
  }
  view.setUint32(0, size, true);
  view.setUint32(4, fastCrc32(frame.subarray(FRAME_HEADER)), true);
  return frame;
}

/**
 * Reads the records of a log, in order. The last frame may be torn (cut
 * short, or failing its checksum) by a crash mid-append: the log ends before
 * it, and `validBytes` says where, so the caller can cut the tail. A bad
 * frame with more frames after it is not a torn append but damage:
 * `damagedAt` says where, and the caller must not drop what follows.
 */
export function decodeRecords(
  bytes: Uint8Array,
): { records: IndexRecord[]; validBytes: number; damagedAt?: number } {
  const records: IndexRecord[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + FRAME_HEADER <= bytes.length) {
    const size = view.getUint32(at, true);
    const end = at + FRAME_HEADER + size;
    if (end > bytes.length) {
      // Torn by a crash, or a damaged length: only damage leaves a whole frame after it.
      return wholeFrameAfter(bytes, at)
        ? { records, validBytes: at, damagedAt: at }
        : { records, validBytes: at };
    }
    const payload = bytes.subarray(at + FRAME_HEADER, end);
    const record = fastCrc32(payload) === view.getUint32(at + 4, true)
      ? decodePayload(payload)
      : undefined;
    if (!record) {
      // Zeros to the end are an append the file's length outran (a crash before its data reached
      // the disk): torn, like a frame cut short. Anything else after a bad frame is damage.
      return end < bytes.length && !zerosFrom(bytes, at)
        ? { records, validBytes: at, damagedAt: at }
        : { records, validBytes: at };
    }
    records.push(record);
    at = end;
  }
  return { records, validBytes: at };
}

/**
 * Whether a whole frame (length in bounds, checksum right) starts anywhere
 * after `from`. A crash tears only the last append, so a frame that claims to
 * run past the end with a good frame after it is a damaged length, and the
 * log must not be cut there. Runs only when a log's end looks torn.
 */
function wholeFrameAfter(bytes: Uint8Array, from: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = from + 1; at + FRAME_HEADER <= bytes.length; at++) {
    const end = at + FRAME_HEADER + view.getUint32(at, true);
    if (end > bytes.length || end === at + FRAME_HEADER) continue;
    if (fastCrc32(bytes.subarray(at + FRAME_HEADER, end)) === view.getUint32(at + 4, true)) {
      return true;
    }
  }
  return false;
}

function zerosFrom(bytes: Uint8Array, from: number): boolean {
  for (let at = from; at < bytes.length; at++) if (bytes[at] !== 0) return false;
  return true;
}

function decodePayload(payload: Uint8Array): IndexRecord | undefined {
  // No room for the header's length: a zero-length frame (zeros, whose CRC is 0) is not a record.
  if (payload.length < 4) return undefined;
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const headerLength = view.getUint32(0, true);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(payload.subarray(4, 4 + headerLength)));
  } catch {
    return undefined;
  }
  if (!isHeader(header)) return undefined;
  // One copy per record, so its arrays neither pin the whole log nor start unaligned.
  const binary = payload.slice(4 + padded(headerLength)).buffer;
  const dictionary = header.terms === "" ? [] : header.terms.split(" ");
  let at = 0;
  const put: PreparedChunk[] = [];
  for (const chunk of header.put) {
    const dimNumbers = chunk.dense ? 0 : chunk.nonzero;
    if (chunk.dense && chunk.nonzero !== chunk.dimensions) return undefined;
    const size = chunk.terms * 4 + padded(chunk.terms * 2) + dimNumbers * 4 + chunk.nonzero * 4;
    if (at + size > binary.byteLength) return undefined;
    const termNumbers = new Uint32Array(binary, at, chunk.terms);
    at += chunk.terms * 4;
    for (const number of termNumbers) if (number >= dictionary.length) return undefined;
    const counts = new Uint16Array(binary, at, chunk.terms);
    at = padded(at + chunk.terms * 2);
    const dims = new Uint32Array(binary, at, dimNumbers);
    at += dimNumbers * 4;
    const values = new Float32Array(binary, at, chunk.nonzero);
    at += chunk.nonzero * 4;
    const { id, text, metadata, dimensions, length } = chunk;
    put.push(sharedTerms(
      {
        id,
        text,
        metadata,
        dimensions,
        length,
        counts,
        dims,
        values,
        ...(chunk.dense ? { dense: true as const } : {}),
      },
      { dictionary, numbers: termNumbers },
    ));
  }
  if (at !== binary.byteLength) return undefined;
  return { namespace: header.namespace, remove: header.remove, put };
}

/**
 * A decoded chunk whose `terms` are spelled out only if someone asks (a
 * compaction, a re-encode); loading reads `shared` instead.
 */
function sharedTerms(
  chunk: Omit<PreparedChunk, "terms" | "shared">,
  shared: { dictionary: readonly string[]; numbers: Uint32Array },
): PreparedChunk {
  let terms: string[] | undefined;
  return Object.defineProperties({ ...chunk, shared } as PreparedChunk, {
    terms: {
      enumerable: true,
      get: () => terms ??= Array.from(shared.numbers, (number) => shared.dictionary[number]!),
    },
  });
}
