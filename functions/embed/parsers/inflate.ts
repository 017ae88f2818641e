import { yieldingEvery } from "./yielding.ts";

/** What the runtime's `DecompressionStream` reads: a zip entry, a PDF stream (zlib), a `.gz` file. */
export type InflateFormat = "deflate-raw" | "deflate" | "gzip";

/**
 * Bytes of output still allowed, shared by everything one file inflates
 * (`ARCHIVE_MAX_EXPANDED_BYTES`): below zero once the file expands past it.
 */
export type InflateBudget = { left: number };

/** The most DEFLATE expands: 258 bytes from a 2-bit code. */
export const MAX_DEFLATE_RATIO = 1032;

/**
 * Compressed bytes handed to the inflater at a time: one slice adds at most
 * ~8 MiB before the running total is checked again, so a bomb is stopped
 * within that of its bound.
 */
const SLICE_BYTES = 8 * 1024;

/** The first slice: bytes that only look compressed fail in it, charged at most ~1 MiB. */
const FIRST_SLICE_BYTES = 1024;

/** Bytes that do not inflate: corrupt, or more bytes after the end of the compressed data. */
export class InflateError extends Error {
  override name = "InflateError";
}

/**
 * `compressed` inflated slice by slice, its output counted against `budget`
 * as it arrives, never against a size the file declares (a bomb's headers
 * lie): once `budget.left` drops below zero it stops and returns nothing,
 * and the caller refuses the file. The runtime's native `DecompressionStream`
 * inflates (Deno and workerd both have it, several times faster than
 * inflating in JavaScript), and the event loop gets a turn between slices.
 * With `keep` false the output is only counted (a PDF's streams are inflated
 * to be measured, not read); as a function, it is asked once, of the first
 * chunk of output. A slice that fails loses its output with the error, so it
 * is charged as if it had expanded `MAX_DEFLATE_RATIO` times, and
 * `InflateError` is thrown: a caller that reads on past damage still never
 * counts less than was inflated. `tailBytes` at the end go in a slice of
 * their own, so junk there (a line end after the data) costs that little.
 *
 * @example
 * const budget = { left: limits.maxExpandedBytes };
 * const text = await inflate(gzipped, "gzip", budget);
 * if (budget.left < 0) throw tooLarge();
 */
export async function inflate(
  compressed: Uint8Array,
  format: InflateFormat,
  budget: InflateBudget,
  options: { keep?: boolean | ((head: Uint8Array) => boolean); tailBytes?: number } = {},
): Promise<Uint8Array> {
  let keep = typeof options.keep === "boolean" ? options.keep : undefined;
  const keepIf = typeof options.keep === "function" ? options.keep : () => true;
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      budget.left -= value.byteLength;
      if (budget.left < 0) {
        // Over the bound: stop inflating; the writer's next write fails and ends the loop.
        await reader.cancel();
        return;
      }
      keep ??= keepIf(value);
      if (keep) parts.push(value);
    }
  })();
  const pause = yieldingEvery();
  const tail = compressed.byteLength - Math.min(options.tailBytes ?? 0, compressed.byteLength);
  let slice = 0;
  try {
    for (let at = 0; at < compressed.byteLength && budget.left >= 0; at += slice) {
      const size = at === 0 ? FIRST_SLICE_BYTES : SLICE_BYTES;
      const part = compressed.subarray(at, at < tail ? Math.min(at + size, tail) : undefined);
      slice = part.byteLength;
      await writer.write(part as Uint8Array<ArrayBuffer>);
      await pause();
    }
    slice = 0;
    if (budget.left >= 0) await writer.close();
    else await writer.abort().catch(() => {});
    await reading;
  } catch (error) {
    await reading.catch(() => {});
    if (budget.left < 0) return new Uint8Array();
    budget.left -= slice * MAX_DEFLATE_RATIO;
    throw new InflateError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  return budget.left < 0 ? new Uint8Array() : concat(parts);
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
