import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { detectFileKind, type FileKind } from "./detect.ts";
import { inflate, type InflateBudget } from "./inflate.ts";
import type { FileLimits } from "./limits.ts";
import { reasonOf } from "./reason.ts";

/** The file a gzip holds: `README.md.gz` → `README.md`, `changelog.gz` → `changelog`. */
export function gzipInnerName(name: string): string {
  return name.replace(/\.gz$/i, "") || name;
}

/**
 * The file inside a gzip, and its kind from its own bytes and its name
 * without `.gz`, inflated within `ARCHIVE_MAX_EXPANDED_BYTES`. One level
 * only: a gzip inside is refused, as is what would be refused unzipped (an
 * image, binary data), with the outer file's name.
 *
 * @example
 * const inner = await gunzipFile(bytes, "README.md.gz", limits);
 * inner.kind; // "markdown"
 */
export async function gunzipFile(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<{ kind: Exclude<FileKind, "gzip">; bytes: Uint8Array }> {
  const budget: InflateBudget = { left: limits.maxExpandedBytes };
  let inflated: Uint8Array;
  try {
    inflated = await inflate(bytes, "gzip", budget);
  } catch (error) {
    throw new DocumentRefusedError(
      name,
      "unreadable",
      `is a damaged or truncated gzip file (${reasonOf(error)})`,
      { cause: error },
    );
  }
  if (budget.left < 0) {
    throw new DocumentRefusedError(
      name,
      "too_large",
      `expands past ${limits.maxExpandedBytes} bytes (ARCHIVE_MAX_EXPANDED_BYTES); ` +
        "refused as a possible gzip bomb",
    );
  }
  const inner = gzipInnerName(name);
  let kind: FileKind;
  try {
    kind = detectFileKind(inflated, inner);
  } catch (error) {
    if (!(error instanceof DocumentRefusedError)) throw error;
    const why = error.message.slice(error.file.length + 2);
    throw new DocumentRefusedError(name, error.reason, `is a gzip of ${inner}, which ${why}`);
  }
  if (kind === "gzip") {
    throw new DocumentRefusedError(
      name,
      "not_text",
      "is a gzip inside a gzip; sift unpacks one level: send the inner file, or gzip it once",
    );
  }
  return { kind, bytes: inflated };
}
