import { PayloadTooLargeError, RequestTimeoutError } from "../errors.ts";
import { decodeUtf8Body } from "./utf8.ts";

/** `1 MiB`, `64 KiB`: how docs/limits-and-safety.md and the 413 messages state a byte limit. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds the ${formatBytes(maxBytes)} limit`);
}

/** How long a body may take to arrive whole when the caller names no limit. */
export const BODY_READ_TIMEOUT_MS = 30_000;

/** Microtask turns a read may take and still count as already there (no timer armed for it). */
const READY_TURNS = 8;

/**
 * Whether `promise` settles within a few microtask turns: a read whose bytes
 * have already arrived does (Deno's server hands over a body received whole
 * without waiting on I/O), a read that waits on the network does not.
 */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(() => settled = true, () => settled = true);
  for (let turn = 0; turn < READY_TURNS && !settled; turn++) await undefined;
  return settled;
}

/**
 * One read, or a 408 (and the upload cancelled) when `deadline` passes first.
 * The timer is armed only for a read that has to wait: a timer per read was a
 * twentieth of a small search's CPU, and most bodies are whole on arrival.
 */
async function readBefore(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
  timeoutMs: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const read = reader.read();
  if (await settlesAtOnce(read)) return await read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new RequestTimeoutError(
          `The request body did not arrive within ${timeoutMs / 1000} s; send it whole, faster`,
        ),
      );
    }, Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([read, late]);
  } catch (error) {
    if (error instanceof RequestTimeoutError) await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a request body of at most `maxBytes`, chunk by chunk: a declared
 * `content-length` over the limit is refused before reading, and a body that
 * runs past it (chunked, or lying about its length) is cancelled at the limit,
 * so no more than `maxBytes` plus one chunk is ever held. 413 either way.
 * A body not whole within `timeoutMs` (a client that stalls mid-body) is
 * cancelled with a 408, so a stalled upload holds nothing for long.
 *
 * @example
 * const bytes = await readBodyBytes(c.req.raw, 1024 * 1024, { timeoutMs: 30_000 });
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  options: { timeoutMs?: number | undefined } = {},
): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const timeoutMs = options.timeoutMs ?? BODY_READ_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await readBefore(reader, deadline, timeoutMs);
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
export async function readBodyText(
  request: Request,
  maxBytes: number,
  options: { timeoutMs?: number | undefined } = {},
): Promise<string> {
  return decodeUtf8Body(await readBodyBytes(request, maxBytes, options));
}
