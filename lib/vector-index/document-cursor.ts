import { IndexInputError } from "./errors.ts";

/**
 * The embedded indexes page documents by id: the cursor is the last id of
 * the page before, as `{"after": id}` base64url-encoded so it travels in a
 * query string as is, and a string no page gave is seen for what it is.
 */
export function encodeDocumentCursor(lastId: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ after: lastId }));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The id a cursor continues after; a cursor no page gave is a 400 naming `cursor`. */
export function decodeDocumentCursor(cursor: string): string {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url");
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const parsed: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        Uint8Array.from(binary, (char) => char.charCodeAt(0)),
      ),
    );
    const id = (parsed as { after?: unknown } | null)?.after;
    if (typeof id !== "string" || !id) throw new Error("no id");
    return id;
  } catch {
    throw new IndexInputError("cursor: not a cursor a page of documents gave");
  }
}
