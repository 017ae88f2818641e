/**
 * `sift://<namespace>/<id>`, the id percent-encoded: the URI citations already
 * use for a chunk (`sift://default/rrf%230` is chunk `rrf#0`), and for a whole
 * document its id alone (`sift://default/rrf`).
 */
export function resourceUri(namespace: string, id: string): string {
  return `sift://${namespace}/${encodeURIComponent(id)}`;
}

/** The namespace and id a `sift://` URI names, or undefined for any other URI. */
export function parseResourceUri(uri: string): { namespace: string; id: string } | undefined {
  const match = /^sift:\/\/([A-Za-z0-9_-]{1,64})\/([^/?#]+)$/.exec(uri);
  if (!match) return undefined;
  try {
    return { namespace: match[1]!, id: decodeURIComponent(match[2]!) };
  } catch {
    return undefined; // a malformed percent-escape
  }
}

/** A chunk id's parts (`rrf#0` → `rrf`, 0), or undefined for a document id. */
export function chunkIdParts(id: string): { docId: string; chunkIndex: number } | undefined {
  const match = /^(.+)#(\d{1,9})$/.exec(id);
  return match ? { docId: match[1]!, chunkIndex: Number(match[2]) } : undefined;
}
