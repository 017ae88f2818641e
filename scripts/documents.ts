import type { DocumentInput } from "../shared/documents/ingest.ts";

const KNOWN_FIELDS = new Set(["id", "text", "title", "url", "published", "authors", "metadata"]);

function safeId(name: string): string {
  return name.replace(/\.[^.]+$/, "").replace(/[^A-Za-z0-9._:-]+/g, "-").slice(0, 200) ||
    "document";
}

/** One `.jsonl` line as a document: known fields lifted, any other field kept as metadata. */
export function documentFromRecord(record: Record<string, unknown>): DocumentInput {
  const metadata: Record<string, unknown> = {
    ...(typeof record.metadata === "object" && record.metadata ? record.metadata as object : {}),
  };
  for (const [key, value] of Object.entries(record)) {
    if (!KNOWN_FIELDS.has(key) && value !== null) metadata[key] = value;
  }
  const str = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  return {
    text: String(record.text ?? ""),
    id: record.id === undefined ? undefined : safeId(String(record.id)),
    title: str(record.title),
    url: str(record.url),
    published: str(record.published),
    authors: Array.isArray(record.authors) ? record.authors.map(String) : str(record.authors),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
}

/** Documents from a `.jsonl`, `.md` or `.txt` file, or every such file under a folder. */
export async function readDocuments(path: string): Promise<DocumentInput[]> {
  const info = await Deno.stat(path);
  if (info.isDirectory) {
    const documents: DocumentInput[] = [];
    const entries = [];
    for await (const entry of Deno.readDir(path)) entries.push(entry.name);
    for (const name of entries.sort()) {
      if (/\.(jsonl|md|txt)$/i.test(name)) {
        documents.push(...await readDocuments(`${path}/${name}`));
      }
    }
    return documents;
  }
  const text = await Deno.readTextFile(path);
  const fileName = path.split("/").pop() ?? path;
  if (/\.jsonl$/i.test(path)) {
    return text.split("\n").filter((line) => line.trim()).map((line, number) => {
      try {
        return documentFromRecord(JSON.parse(line));
      } catch {
        throw new Error(`${path}:${number + 1}: not a JSON object`);
      }
    });
  }
  if (/\.(md|txt)$/i.test(path)) {
    const heading = text.match(/^#\s+(.+)$/m)?.[1]?.trim();
    return [{ id: safeId(fileName), title: heading ?? fileName, text }];
  }
  throw new Error(`${path}: only .jsonl, .md and .txt files can be ingested`);
}

/**
 * Groups documents into requests under the ingest limits (count and bytes).
 * A document given again (its id, or without one its text) starts the next
 * request: one request may not name a document twice, and a later request
 * replaces the document whole, so the file's last line for it stands.
 */
export function batchDocuments(
  documents: DocumentInput[],
  limits = { documents: 100, bytes: 12 * 1024 * 1024 },
): DocumentInput[][] {
  const batches: DocumentInput[][] = [];
  let current: DocumentInput[] = [];
  let named = new Set<string>();
  let bytes = 0;
  for (const document of documents) {
    const size = new TextEncoder().encode(JSON.stringify(document)).length;
    const key = document.id === undefined ? `text ${document.text}` : `id ${document.id}`;
    const full = current.length >= limits.documents || bytes + size > limits.bytes;
    if (current.length && (full || named.has(key))) {
      batches.push(current);
      current = [];
      named = new Set();
      bytes = 0;
    }
    current.push(document);
    named.add(key);
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** The files a path names: the file itself, or every file under a folder (dotfiles left out), sorted. */
export async function filesUnder(path: string): Promise<string[]> {
  const info = await Deno.stat(path);
  if (!info.isDirectory) return [path];
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (!entry.name.startsWith(".")) names.push(entry.name);
  }
  const files: string[] = [];
  for (const name of names.sort()) files.push(...await filesUnder(`${path}/${name}`));
  return files;
}
