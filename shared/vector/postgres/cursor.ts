import { InvalidRequestError } from "../../errors.ts";

/**
 * The Postgres index pages documents by id, as the embedded one does: the
 * cursor is the last id of the page before, base64url of `{"after": id}`.
 */
export function encodePostgresCursor(lastId: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ after: lastId }));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The id a cursor continues after; a cursor no page gave is a 400 naming `cursor`. */
export function decodePostgresCursor(cursor: string): string {
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
    throw new InvalidRequestError("cursor: not a cursor a page of documents gave");
  }
}
