import { InvalidRequestError } from "../../shared/errors.ts";

/**
 * Where a page of documents stops in Upstash's id order: the `range` cursor
 * of the id page it stopped in, and how many documents of that page were
 * already listed. Opaque to callers (base64url of JSON).
 */
export type UpstashDocumentCursor = { range: string; skip: number };

export function encodeUpstashCursor(cursor: UpstashDocumentCursor): string {
  return btoa(JSON.stringify([cursor.range, cursor.skip])).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
}

/** A cursor no page gave is a 400 naming `cursor`. */
export function decodeUpstashCursor(cursor: string): UpstashDocumentCursor {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url");
    const parsed: unknown = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
    if (
      Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" &&
      Number.isInteger(parsed[1]) && parsed[1] >= 0
    ) return { range: parsed[0], skip: parsed[1] };
  } catch { /* falls through to the caller's mistake */ }
  throw new InvalidRequestError("cursor: not a cursor a page of documents gave");
}
