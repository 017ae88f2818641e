import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";

/** One entry as the zip's central directory lists it, and where its data lies. */
export type ZipEntry = {
  name: string;
  /** 0: stored, 8: DEFLATE. */
  method: number;
  encrypted: boolean;
  /** The entry's compressed bytes within the archive. */
  start: number;
  end: number;
};

const END_RECORD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The refusal of an archive cut off before its end. */
export function truncatedZip(file: string): DocumentRefusedError {
  return new DocumentRefusedError(
    file,
    "unreadable",
    "is truncated: the zip archive stops before its end record; send the whole file again",
  );
}

const damaged = (file: string, why: string) =>
  new DocumentRefusedError(file, "unreadable", `is damaged: ${why}`);

/** Where the end-of-central-directory record starts, or -1 when the archive has none. */
function endRecordAt(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535, at the very end.
  const last = view.byteLength - 22;
  for (let at = last; at >= Math.max(0, last - 65535); at--) {
    if (view.getUint32(at, true) === END_RECORD) return at;
  }
  return -1;
}

/**
 * The entries of a zip archive from its central directory, the list a zip
 * ends with. Only offsets and the compressed size are read: what an entry
 * claims to inflate to is never used (a bomb's headers lie), and an entry's
 * data must lie within the file. An archive without its end record was cut
 * off and is refused as truncated.
 */
export function zipDirectory(bytes: Uint8Array, file: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecordAt(view);
  if (end === -1) throw truncatedZip(file);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_HEADER) {
      throw damaged(file, "its central directory is not where its end record says");
    }
    const nameLength = view.getUint16(at + 28, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const local = view.getUint32(at + 42, true);
    const compressed = view.getUint32(at + 20, true);
    if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== LOCAL_HEADER) {
      throw damaged(file, `the entry ${name.slice(0, 100)} is not where its directory says`);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressed > bytes.byteLength) throw truncatedZip(file);
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      encrypted: (view.getUint16(at + 8, true) & 1) === 1,
      start,
      end: start + compressed,
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}
