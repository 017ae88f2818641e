/**
 * Zip archives written field by field, for tests of what a zip may claim:
 * entries deflated with node:zlib (native, so a 300 MiB entry deflates in a
 * second or two), with the sizes in the headers as given (a bomb's headers lie).
 */
import { crc32, createDeflateRaw } from "node:zlib";

export type ZipEntry = {
  name: string;
  /** The raw DEFLATE stream. */
  deflated: Uint8Array;
  crc: number;
  /** What the entry inflates to, as written in its headers (true or not). */
  declaredSize: number;
};

/** An entry's bytes deflated, from chunks produced one at a time (never all in memory). */
export async function deflateEntry(
  name: string,
  chunks: Iterable<Uint8Array>,
): Promise<ZipEntry> {
  const deflate = createDeflateRaw({ level: 9 });
  const parts: Uint8Array[] = [];
  deflate.on("data", (part: Uint8Array) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  let crc = 0;
  let size = 0;
  for (const chunk of chunks) {
    crc = crc32(chunk, crc);
    size += chunk.byteLength;
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  return { name, deflated: concat(parts), crc, declaredSize: size };
}

/** A zip archive of DEFLATE entries: local headers, data, central directory, end record. */
export function zipOf(entries: readonly ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const local = header(30, name, (view) => {
      view.setUint32(0, 0x04034b50, true);
      common(view, 4, entry);
      view.setUint16(26, name.length, true);
    });
    const central = header(46, name, (view) => {
      view.setUint32(0, 0x02014b50, true);
      view.setUint16(4, 20, true);
      common(view, 6, entry);
      view.setUint16(28, name.length, true);
      view.setUint32(42, offset, true);
    });
    locals.push(local, entry.deflated);
    centrals.push(central);
    offset += local.byteLength + entry.deflated.byteLength;
  }
  const directory = concat(centrals);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, entries.length, true);
  view.setUint16(10, entries.length, true);
  view.setUint32(12, directory.byteLength, true);
  view.setUint32(16, offset, true);
  return concat([...locals, directory, end]);
}

/** Version, flags, method, time, CRC and sizes: the fields both headers share, from `at`. */
function common(view: DataView, at: number, entry: ZipEntry) {
  view.setUint16(at, 20, true); // version needed: 2.0 (DEFLATE)
  view.setUint16(at + 4, 8, true); // method: DEFLATE
  view.setUint16(at + 8, 0x21, true); // date: 1980-01-01
  view.setUint32(at + 10, entry.crc, true);
  view.setUint32(at + 14, entry.deflated.byteLength, true);
  view.setUint32(at + 18, entry.declaredSize, true);
}

function header(size: number, name: Uint8Array, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(size + name.byteLength);
  write(new DataView(bytes.buffer));
  bytes.set(name, size);
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}

/**
 * A DOCX whose `word/document.xml` inflates to `expandedBytes` (one text run
 * of `a`s): about 1/1000 of that zipped, as DEFLATE allows at best.
 * `declaredSize` overrides what its headers say it inflates to.
 */
export async function docxBomb(
  expandedBytes: number,
  options: { declaredSize?: number } = {},
): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="urn:w"><w:body><w:p><w:r><w:t>',
  );
  const tail = encoder.encode("</w:t></w:r></w:p></w:body></w:document>");
  const slice = new Uint8Array(1024 * 1024).fill(0x61);
  function* chunks() {
    yield head;
    let left = expandedBytes - head.byteLength - tail.byteLength;
    for (; left > 0; left -= slice.byteLength) {
      yield slice.subarray(0, Math.min(left, slice.length));
    }
    yield tail;
  }
  const document = await deflateEntry("word/document.xml", chunks());
  const types = await deflateEntry("[Content_Types].xml", [encoder.encode("<Types/>")]);
  return zipOf([
    types,
    { ...document, declaredSize: options.declaredSize ?? document.declaredSize },
  ]);
}
