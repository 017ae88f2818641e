import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { inflate, type InflateBudget } from "./inflate.ts";
import { zipDirectory, type ZipEntry } from "./zip-directory.ts";
import { reasonOf } from "./reason.ts";

/**
 * The named entries of a zip archive, inflated (see `inflate`) with a bound
 * on what they expand to together. The output is counted as it arrives, and
 * the sizes the zip's headers declare are never used (a bomb's headers lie),
 * so memory stays near `maxExpandedBytes` whatever the archive claims, and
 * the event loop gets turns, so a large archive does not stall other
 * requests where this runs on the request loop (workerd).
 */
export async function unzipEntries(
  bytes: Uint8Array,
  names: readonly string[],
  options: { file: string; maxExpandedBytes: number },
): Promise<Map<string, Uint8Array>> {
  const budget: InflateBudget = { left: options.maxExpandedBytes };
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
    const inflated = await inflateEntry(bytes, entry, budget, options.file);
    if (budget.left < 0) {
      throw new DocumentRefusedError(
        options.file,
        "too_large",
        `expands past ${options.maxExpandedBytes} bytes (ARCHIVE_MAX_EXPANDED_BYTES); ` +
          "refused as a possible zip bomb",
      );
    }
    found.set(entry.name, inflated);
  }
  return found;
}

/** One entry's bytes; nothing once `budget.left` is spent (the caller refuses the archive). */
async function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: InflateBudget,
  file: string,
): Promise<Uint8Array> {
  const data = bytes.subarray(entry.start, entry.end);
  if (entry.method === 0) {
    budget.left -= data.byteLength;
    return budget.left < 0 ? new Uint8Array() : data;
  }
  if (entry.method !== 8) {
    throw new DocumentRefusedError(
      file,
      "unreadable",
      `is damaged: ${entry.name.slice(0, 100)} uses compression method ${entry.method}, ` +
        "not DEFLATE",
    );
  }
  try {
    return await inflate(data, "deflate-raw", budget);
  } catch (error) {
    throw new DocumentRefusedError(
      file,
      "unreadable",
      `is damaged: ${entry.name.slice(0, 100)} does not inflate (${reasonOf(error)})`,
      { cause: error },
    );
  }
}
