import { PayloadTooLargeError } from "../errors.ts";
import { decodeUtf8Body } from "./utf8.ts";

/** `1 MiB`, `64 KiB`: how the README and the 413 messages state a byte limit. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds the ${formatBytes(maxBytes)} limit`);
}

/**
 * Reads a request body of at most `maxBytes`, chunk by chunk: a declared
 * `content-length` over the limit is refused before reading, and a body that
 * runs past it (chunked, or lying about its length) is cancelled at the limit,
 * so no more than `maxBytes` plus one chunk is ever held. 413 either way.
 *
 * @example
 * const bytes = await readBodyBytes(c.req.raw, 1024 * 1024);
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stop the upload here: the rest is never read, so it is never held.
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body as UTF-8 text, read within `maxBytes` (see `readBodyBytes`); a
 * body that is not UTF-8 is a 400 naming the byte offset (`decodeUtf8Body`).
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return decodeUtf8Body(await readBodyBytes(request, maxBytes));
}
