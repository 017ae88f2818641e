import { crc32 } from "../../crc32.ts";
import type { ChunkMetadata } from "../port.ts";
import type { NamespaceSnapshot } from "./snapshot.ts";

/*
 * A checkpoint: the whole index as frames (u32 length, u32 CRC-32, payload;
 * the payload a u32 JSON length, the JSON, then binary arrays padded to 4).
 * Per namespace one "postings" frame (its term list and all its postings as
 * flat arrays) and "slots" frames of at most SLOTS_PER_FRAME chunks (ids,
 * texts, metadata), so no JSON string grows with the index; then an "end"
 * frame. A checkpoint without its end frame is not a checkpoint.
 */

const SLOTS_PER_FRAME = 4096;

type PostingsHeader = {
  kind: "postings";
  namespace: string;
  dimensions: number;
  count: number;
  terms: string;
  termEntries: number;
  dimEntries: number;
};
type SlotsHeader = {
  kind: "slots";
  namespace: string;
  ids: string[];
  texts: string[];
  metadata: ChunkMetadata[];
};
type EndHeader = { kind: "end"; generation: number; namespaces: number };
type Header = PostingsHeader | SlotsHeader | EndHeader;

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
  view.setUint32(4, crc32(bytes.subarray(8)), true);
  return bytes;
}

/** The frames of a checkpoint of `namespaces` (written one by one, so the event loop breathes). */
export function* checkpointFrames(
  namespaces: Map<string, NamespaceSnapshot>,
  generation: number,
): Generator<Uint8Array> {
  for (const [namespace, snapshot] of namespaces) {
    yield frame({
      kind: "postings",
      namespace,
      dimensions: snapshot.dimensions,
      count: snapshot.ids.length,
      terms: snapshot.terms.join(" "),
      termEntries: snapshot.termSlots.length,
      dimEntries: snapshot.dimSlots.length,
    }, [
      snapshot.lengths,
      snapshot.termOffsets,
      snapshot.termSlots,
      snapshot.termCounts,
      snapshot.dimOffsets,
      snapshot.dimSlots,
      snapshot.dimValues,
    ]);
    for (let from = 0; from < snapshot.ids.length; from += SLOTS_PER_FRAME) {
      const to = from + SLOTS_PER_FRAME;
      yield frame({
        kind: "slots",
        namespace,
        ids: snapshot.ids.slice(from, to),
        texts: snapshot.texts.slice(from, to),
        metadata: snapshot.metadata.slice(from, to),
      });
    }
  }
  yield frame({ kind: "end", generation, namespaces: namespaces.size });
}

/**
 * Reads a checkpoint. Every frame's checksum is verified and the end frame
 * must be there; anything else is damage, reported, never half-loaded.
 */
export function readCheckpoint(
  bytes: Uint8Array,
): { generation: number; namespaces: Map<string, NamespaceSnapshot> } {
  const damaged = (why: string) => new Error(`checkpoint damaged: ${why}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const namespaces = new Map<string, NamespaceSnapshot>();
  let at = 0;
  while (at + 8 <= bytes.length) {
    const size = view.getUint32(at, true);
    const end = at + 8 + size;
    if (end > bytes.length) throw damaged(`frame at ${at} is cut short`);
    const payload = bytes.subarray(at + 8, end);
    if (crc32(payload) !== view.getUint32(at + 4, true)) throw damaged(`frame at ${at}`);
    const jsonLength = new DataView(payload.buffer, payload.byteOffset).getUint32(0, true);
    const header = JSON.parse(
      new TextDecoder().decode(payload.subarray(4, 4 + jsonLength)),
    ) as Header;
    if (header.kind === "end") {
      if (end !== bytes.length || header.namespaces !== namespaces.size) {
        throw damaged("the end frame does not close it");
      }
      for (const [name, snapshot] of namespaces) {
        if (snapshot.ids.length !== snapshot.lengths.length) throw damaged(`${name} is incomplete`);
      }
      return { generation: header.generation, namespaces };
    }
    if (header.kind === "postings") {
      const binary = payload.slice(4 + padded(jsonLength)).buffer;
      let offset = 0;
      const take = <A>(
        make: (buffer: ArrayBuffer, offset: number, length: number) => A,
        length: number,
        width: number,
      ) => {
        if (offset + length * width > binary.byteLength) throw damaged("postings run short");
        const array = make(binary, offset, length);
        offset += padded(length * width);
        return array;
      };
      const u32 = (b: ArrayBuffer, o: number, n: number) => new Uint32Array(b, o, n);
      const terms = header.terms === "" ? [] : header.terms.split(" ");
      namespaces.set(header.namespace, {
        dimensions: header.dimensions,
        ids: [],
        texts: [],
        metadata: [],
        lengths: take(u32, header.count, 4),
        terms,
        termOffsets: take(u32, terms.length + 1, 4),
        termSlots: take(u32, header.termEntries, 4),
        termCounts: take((b, o, n) => new Uint16Array(b, o, n), header.termEntries, 2),
        dimOffsets: take(u32, header.dimensions + 1, 4),
        dimSlots: take(u32, header.dimEntries, 4),
        dimValues: take((b, o, n) => new Float32Array(b, o, n), header.dimEntries, 4),
      });
    } else {
      const snapshot = namespaces.get(header.namespace);
      if (!snapshot) throw damaged(`slots before the postings of ${header.namespace}`);
      snapshot.ids.push(...header.ids);
      snapshot.texts.push(...header.texts);
      snapshot.metadata.push(...header.metadata);
    }
    at = end;
  }
  throw damaged("no end frame");
}
