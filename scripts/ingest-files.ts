import { fileDocumentId, pathDocumentId, sharedIds } from "../shared/documents/file-id.ts";
import { CliError } from "../cli/cli.ts";
import { filesUnder } from "./documents.ts";

/** A file to ingest and the id its document gets; a `.jsonl` has none (its lines carry theirs). */
export type IngestFile = { path: string; id?: string };

const LINES = /\.(jsonl|ndjson)$/i;

/**
 * The files the paths name, each with its document's id: a folder's files by
 * their path under the folder (`alpha/README`), a file named alone by its
 * name (`Tide Tables.pdf` → `Tide-Tables`, as an upload without an id).
 */
export async function filesToIngest(paths: readonly string[]): Promise<IngestFile[]> {
  const files: IngestFile[] = [];
  for (const given of paths) {
    if (!(await Deno.stat(given)).isDirectory) {
      files.push(LINES.test(given) ? { path: given } : { path: given, id: fileDocumentId(given) });
      continue;
    }
    for (const path of await filesUnder(given)) {
      const relative = path.slice(given.length).replace(/^\/+/, "");
      files.push(LINES.test(path) ? { path } : { path, id: pathDocumentId(relative) });
    }
  }
  return files;
}

/** Refuses files that would be one document (one would replace the other), naming them all. */
export function refuseSharedIds(files: readonly IngestFile[]): void {
  const shared = sharedIds(files.filter((file): file is Required<IngestFile> => !!file.id));
  if (shared.length === 0) return;
  const named = shared.map(([id, both]) => `"${id}" (${both.map((file) => file.path).join(", ")})`);
  throw new CliError(
    `${shared.length === 1 ? "one document id names" : `${shared.length} document ids name`} ` +
      `more than one file, and one would replace the other: ${named.join("; ")}; nothing was sent`,
  );
}
