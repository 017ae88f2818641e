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
    timer = setTimeout(() => reject(timedOut(timeoutMs)), Math.max(0, deadline - Date.now()));
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
 * Requests whose server ends the body at its declared `content-length`
 * (`Deno.serve`: HTTP/1.1 framing hands the handler that many bytes and no
 * more, and HTTP/2 refuses a body that runs past it).
 */
const framedRequests = new WeakSet<Request>();

/**
 * Marks `request` as framed by its server (see `framedRequests`): a body it
 * declares the length of is then read whole at once, which skips the stream a
 * chunk-by-chunk read goes through (Deno's server hands such a body over in
 * one piece: about a tenth of a small search's CPU under load).
 */
export function markFramedBody(request: Request): Request {
  framedRequests.add(request);
  return request;
}

/** A whole-body read waiting on its deadline. */
type Waiting = { deadline: number; expire: () => void };

/**
 * Whole-body reads in flight, all watched by one timer armed for the
 * earliest deadline (not a timer per read: one cost more than the read). The
 * timer is unref'd, so it never holds a process open; it is armed again
 * only while reads wait.
 */
class DeadlineWatch {
  readonly #waiting = new Set<Waiting>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  add(entry: Waiting): void {
    this.#waiting.add(entry);
    if (entry.deadline < this.#timerAt) this.#arm(entry.deadline);
  }

  delete(entry: Waiting): void {
    this.#waiting.delete(entry);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, at - Date.now()));
    if (typeof Deno !== "undefined") Deno.unrefTimer(Number(this.#timer));
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const entry of this.#waiting) {
      if (entry.deadline <= now) {
        this.#waiting.delete(entry);
        entry.expire();
      } else if (entry.deadline < next) next = entry.deadline;
    }
    if (next < Infinity) this.#arm(next);
  }
}

const deadlines = new DeadlineWatch();

function timedOut(timeoutMs: number, serverCloses = false): RequestTimeoutError {
  return new RequestTimeoutError(
    `The request body did not arrive within ${timeoutMs / 1000} s; send it whole, faster`,
    { serverCloses },
  );
}

/**
 * A framed body of declared length (at most the limit, checked before), read
 * whole; a 408 when it is not whole by `timeoutMs`. Such a read cannot be
 * cancelled: the reply to a stalled one goes out while the body is still
 * owed, Deno's server then closes the connection itself, and the read ends
 * with it.
 */
async function readFramed(request: Request, timeoutMs: number): Promise<Uint8Array> {
  const whole = request.arrayBuffer();
  let entry: Waiting | undefined;
  const late = new Promise<never>((_, reject) => {
    entry = { deadline: Date.now() + timeoutMs, expire: () => reject(timedOut(timeoutMs, true)) };
  });
  deadlines.add(entry!);
  try {
    return new Uint8Array(await Promise.race([whole, late]));
  } finally {
    deadlines.delete(entry!);
  }
}

/**
 * Reads a request body of at most `maxBytes`: a declared `content-length`
 * over the limit is refused before reading, and otherwise a body its server
 * frames (`markFramedBody`) is read whole. Any other body is read chunk by
 * chunk, and one that runs past the limit (chunked, or lying about its
 * length) is cancelled there, so no more than `maxBytes` plus one chunk is
 * ever held. 413 either way. A body not whole within `timeoutMs` (a client
 * that stalls mid-body) is a 408, and no handler waits on it after that.
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
  const timeoutMs = options.timeoutMs ?? BODY_READ_TIMEOUT_MS;
  // Before anything reads `request.body`: Deno's whole-body read skips the stream only then.
  if (declared > 0 && framedRequests.has(request)) return await readFramed(request, timeoutMs);
  if (!request.body) return new Uint8Array();
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
