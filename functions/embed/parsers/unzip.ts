import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";

/**
 * The named entries of a zip archive, inflated with a bound on what they
 * expand to: the output is counted as it is produced, so a zip bomb is
 * stopped at the bound whatever sizes its headers claim.
 */
export async function unzipEntries(
  bytes: Uint8Array,
  names: readonly string[],
  options: { file: string; maxExpandedBytes: number },
): Promise<Map<string, Uint8Array>> {
  const { Unzip, UnzipInflate } = await import("fflate");
  const chunks = new Map<string, Uint8Array[]>();
  let expanded = 0;
  let over = false;
  const unzip = new Unzip((entry) => {
    if (!names.includes(entry.name) || over) return;
    const parts: Uint8Array[] = [];
    chunks.set(entry.name, parts);
    entry.ondata = (error, chunk) => {
      if (error || over) return;
      expanded += chunk.byteLength;
      if (expanded > options.maxExpandedBytes) {
        over = true;
        entry.terminate();
        return;
      }
      parts.push(chunk);
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (error) {
    if (!over) {
      throw new DocumentRefusedError(options.file, "unreadable", "is not a readable zip archive", {
        cause: error,
      });
    }
  }
  if (over) {
    throw new DocumentRefusedError(
      options.file,
      "too_large",
      `expands past ${options.maxExpandedBytes} bytes (ARCHIVE_MAX_EXPANDED_BYTES); ` +
        "refused as a possible zip bomb",
    );
  }
  return new Map(
    [...chunks].map(([name, parts]) => {
      const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
      let offset = 0;
      for (const part of parts) {
        joined.set(part, offset);
        offset += part.byteLength;
      }
      return [name, joined];
    }),
  );
}
