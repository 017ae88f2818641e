import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { yieldingEvery } from "./yielding.ts";
import { zipDirectory, type ZipEntry } from "./zip-directory.ts";
import { reasonOf } from "./reason.ts";

/**
 * Compressed bytes handed to the inflater at a time. DEFLATE expands at most
 * about 1032:1, so one slice adds at most ~8 MiB before the running total is
 * checked again: a zip bomb is stopped within that of the limit.
 */
const SLICE_BYTES = 8 * 1024;

/**
 * The named entries of a zip archive, inflated slice by slice with a bound on
 * what they expand to together. The output is counted as it arrives, and the
 * sizes the zip's headers declare are never used (a bomb's headers lie), so
 * memory stays near `maxExpandedBytes` whatever the archive claims. The
 * runtime's native `DecompressionStream` inflates (Deno and workerd both have
 * it, several times faster than inflating in JavaScript), and between slices
 * the event loop gets a turn, so a large archive does not stall other
 * requests where this runs on the request loop (workerd).
 */
export async function unzipEntries(
  bytes: Uint8Array,
  names: readonly string[],
  options: { file: string; maxExpandedBytes: number },
): Promise<Map<string, Uint8Array>> {
  const budget = { left: options.maxExpandedBytes };
  const found = new Map<string, Uint8Array>();
  for (const entry of zipDirectory(bytes, options.file)) {
    if (!names.includes(entry.name) || found.has(entry.name)) continue;
    if (entry.encrypted) {
      throw new DocumentRefusedError(
        options.file,
        "encrypted",
        "is an encrypted archive (it needs a password); remove the password and send it again",
      );
    }
    const parts = await inflateEntry(bytes, entry, budget, options.file);
    if (budget.left < 0) {
      throw new DocumentRefusedError(
        options.file,
        "too_large",
        `expands past ${options.maxExpandedBytes} bytes (ARCHIVE_MAX_EXPANDED_BYTES); ` +
          "refused as a possible zip bomb",
      );
    }
    found.set(entry.name, concat(parts));
  }
  return found;
}

/** One entry's bytes, in the chunks they came in; stops early once `budget.left` is spent. */
async function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: { left: number },
  file: string,
): Promise<Uint8Array[]> {
  const data = bytes.subarray(entry.start, entry.end);
  if (entry.method === 0) {
    budget.left -= data.byteLength;
    return budget.left < 0 ? [] : [data];
  }
  if (entry.method !== 8) {
    throw new DocumentRefusedError(
      file,
      "unreadable",
      `is damaged: ${entry.name.slice(0, 100)} uses compression method ${entry.method}, ` +
        "not DEFLATE",
    );
  }
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      budget.left -= value.byteLength;
      if (budget.left < 0) {
        // Over the limit: stop inflating; the writer's next write fails and ends the loop.
        await reader.cancel();
        return;
      }
      parts.push(value);
    }
  })();
  const pause = yieldingEvery();
  try {
    for (let at = 0; at < data.byteLength && budget.left >= 0; at += SLICE_BYTES) {
      await writer.write(data.subarray(at, at + SLICE_BYTES) as Uint8Array<ArrayBuffer>);
      await pause();
    }
    if (budget.left >= 0) await writer.close();
    else await writer.abort().catch(() => {});
    await reading;
  } catch (error) {
    await reading.catch(() => {});
    if (budget.left < 0) return [];
    throw new DocumentRefusedError(
      file,
      "unreadable",
      `is damaged: ${entry.name.slice(0, 100)} does not inflate (${reasonOf(error)})`,
      { cause: error },
    );
  }
  return budget.left < 0 ? [] : parts;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}
