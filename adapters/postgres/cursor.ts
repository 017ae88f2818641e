import { InvalidRequestError } from "../../shared/errors.ts";
import { decodeDocumentCursor, encodeDocumentCursor } from "../../lib/vector-index/mod.ts";

/**
 * The Postgres index pages documents by id with the embedded index's cursor
 * (base64url of `{"after": id}`), so a client sees one cursor format whichever
 * index holds its documents.
 */
export const encodePostgresCursor: (lastId: string) => string = encodeDocumentCursor;

/** The id a cursor continues after; a cursor no page gave is a 400 naming `cursor`. */
export function decodePostgresCursor(cursor: string): string {
  try {
    return decodeDocumentCursor(cursor);
  } catch {
    throw new InvalidRequestError("cursor: not a cursor a page of documents gave");
  }
}
