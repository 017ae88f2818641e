/**
 * The Deno entries' front door: a TCP listener in front of `Deno.serve`, for
 * the two limits `Deno.serve` cannot set (denoland/deno#3515, #25433):
 *
 * - a deadline on the request head (`HEADER_READ_TIMEOUT_MS`, counted from
 *   the connection's accept): a client that stalls mid-headers is closed;
 * - a size cap on the request head (64 KiB, request line and headers
 *   together): an oversized one gets a JSON 414 or 431 instead of Deno's
 *   empty 400.
 *
 * A head that passes is handed to the real `Deno.serve`, listening on a
 * loopback port of its own, and bytes are piped both ways unbuffered (SSE
 * flows as it is written). One request per connection: the forwarded head
 * carries `connection: close` (the client's own `connection` header dropped),
 * so every request gets the deadline and its client address; a keep-alive
 * client sees `connection: close` on the response and opens a new connection.
 *
 * The client's address travels in `x-sift-client-address`, prefixed with a
 * secret made at start: the front drops any such header a client sent, and
 * `trustFront` believes one only with that secret (a local process reaching
 * the inner port directly is seen at its own loopback address). HTTP/1.x only:
 * an HTTP/2 preface is closed. Deno-only; Workers never load this file.
 */
/** Request line and headers together, as most servers cap them (nginx's 4 × 8k is smaller). */
export const MAX_HEAD_BYTES = 64 * 1024;
const ADDRESS_HEADER = "x-sift-client-address";
const DROPPED_HEADERS = new Set(["connection", "keep-alive", ADDRESS_HEADER]);

export type FrontOptions = {
  hostname: string;
  port: number;
  /** How long a connection may take to send its request head whole. */
  headerReadTimeoutMs: number;
  onListen?: (addr: { hostname: string; port: number }) => void;
};

export type Front = {
  addr: Deno.NetAddr;
  /** Stops accepting, then lets `Deno.serve` finish the requests in flight. */
  shutdown: () => Promise<void>;
};

type Handler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/**
 * Serves `handler` on `hostname:port` behind the front. Throws
 * `Deno.errors.AddrInUse` synchronously, as `Deno.serve` does.
 *
 * @example
 * const front = serveBehindFront({ hostname: "127.0.0.1", port: 8787, headerReadTimeoutMs: 10_000 }, handler);
 */
export function serveBehindFront(options: FrontOptions, handler: Handler): Front {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const secret = crypto.randomUUID();
  const inner = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    trustFront(secret, handler),
  );
  const innerPort = inner.addr.port;
  const addr = listener.addr as Deno.NetAddr;
  options.onListen?.({ hostname: addr.hostname, port: addr.port });
  let closed = false;
  const accepting = (async () => {
    while (!closed) {
      let connection: Deno.Conn;
      try {
        connection = await listener.accept();
      } catch (error) {
        if (closed || error instanceof Deno.errors.BadResource) return; // closed by shutdown
        // e.g. too many open files: a pause, then the next accept may succeed
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      handleConnection(connection, innerPort, secret, options.headerReadTimeoutMs)
        .catch(() => {});
    }
  })();
  return {
    addr,
    shutdown: async () => {
      closed = true;
      try {
        listener.close();
      } catch { /* already closed */ }
      await accepting;
      await inner.shutdown();
    },
  };
}

/**
 * The inner handler: the client's address from the front's header when it
 * carries this process's secret, else the connection's own (loopback) one.
 */
export function trustFront(secret: string, handler: Handler): Handler {
  const prefix = `${secret} `;
  return (request, info) => {
    const value = request.headers.get(ADDRESS_HEADER);
    if (value === null) return handler(request, info);
    // Incoming headers are immutable: a copy without the header (same body, same abort signal),
    // so the secret never reaches the app, its logs or a step it forwards to.
    const headers = new Headers(request.headers);
    headers.delete(ADDRESS_HEADER);
    const stripped = new Request(request, { headers });
    if (value.length > prefix.length && sameText(value.slice(0, prefix.length), prefix)) {
      const hostname = value.slice(prefix.length);
      return handler(stripped, { ...info, remoteAddr: { transport: "tcp", hostname, port: 0 } });
    }
    return handler(stripped, info);
  };
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

async function handleConnection(
  client: Deno.Conn,
  innerPort: number,
  secret: string,
  timeoutMs: number,
): Promise<void> {
  const read = await readHead(client, timeoutMs);
  if (read.kind !== "head") {
    if (read.kind === "too-long-line") {
      await answerAndClose(
        client,
        414,
        "invalid_request",
        `the request line is longer than ${MAX_HEAD_BYTES} bytes`,
      );
    } else if (read.kind === "too-large-head") {
      await answerAndClose(
        client,
        431,
        "invalid_request",
        `the request headers are larger than ${MAX_HEAD_BYTES} bytes`,
      );
    } else if (read.kind === "closed") closeQuietly(client);
    return; // a timeout's 408 closes the connection itself
  }
  const address = (client.remoteAddr as Deno.NetAddr).hostname;
  const head = forwardedHead(read.head, `${secret} ${address}`);
  if (!head) {
    closeQuietly(client);
    return;
  }
  let backend: Deno.Conn;
  try {
    backend = await Deno.connect({ hostname: "127.0.0.1", port: innerPort });
  } catch {
    closeQuietly(client); // shutting down
    return;
  }
  try {
    await writeAll(backend, head);
    await writeAll(backend, read.rest);
  } catch {
    closeQuietly(client);
    closeQuietly(backend);
    return;
  }
  // Whichever side ends first ends both: a client gone away cancels the request, as Deno.serve does.
  const done = () => {
    closeQuietly(client);
    closeQuietly(backend);
  };
  await Promise.race([pump(client, backend), pump(backend, client)]).catch(() => {});
  done();
}

type HeadRead =
  | { kind: "head"; head: Uint8Array; rest: Uint8Array }
  | { kind: "timeout" | "too-long-line" | "too-large-head" | "closed" };

/** Reads until the blank line that ends the head, within the deadline and the size cap. */
async function readHead(client: Deno.Conn, timeoutMs: number): Promise<HeadRead> {
  // Grows as the head does, to the cap: an idle connection holds 4 KiB, not 64.
  let buffer = new Uint8Array(4096);
  let length = 0;
  let scanned = 0;
  let timedOut = false;
  // The 408 is written beside the pending read; closing the connection then ends that read.
  const timer = setTimeout(() => {
    timedOut = true;
    answerAndClose(
      client,
      408,
      "timeout",
      `request headers did not arrive within ${timeoutMs / 1000} s`,
    );
  }, timeoutMs);
  try {
    while (true) {
      // Only the new bytes are scanned (and the two before them), so a trickle costs linear time.
      const end = headEnd(buffer, Math.max(0, scanned - 2), length);
      scanned = length;
      if (end >= 0) {
        return { kind: "head", head: buffer.slice(0, end), rest: buffer.slice(end, length) };
      }
      if (length >= MAX_HEAD_BYTES) break;
      if (length === buffer.length) {
        const grown = new Uint8Array(Math.min(buffer.length * 2, MAX_HEAD_BYTES));
        grown.set(buffer);
        buffer = grown;
      }
      let count: number | null;
      try {
        count = await client.read(buffer.subarray(length));
      } catch {
        return { kind: timedOut ? "timeout" : "closed" };
      }
      if (timedOut) return { kind: "timeout" };
      if (count === null) return { kind: "closed" };
      length += count;
    }
  } finally {
    clearTimeout(timer);
  }
  return { kind: buffer.subarray(0, length).includes(LF) ? "too-large-head" : "too-long-line" };
}

const LF = 0x0a;
const CR = 0x0d;

/** Where the head ends (after its blank line: CRLF CRLF, or bare LFs as Deno.serve takes), or -1. */
function headEnd(buffer: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (buffer[i] !== LF) continue;
    if (i + 1 < to && buffer[i + 1] === LF) return i + 2;
    if (i + 2 < to && buffer[i + 1] === CR && buffer[i + 2] === LF) return i + 3;
  }
  return -1;
}

/**
 * The head as `Deno.serve` gets it: the client's `connection`, `keep-alive` and
 * address headers dropped, `connection: close` and the front's address added.
 * Undefined for what is not HTTP/1.x (an HTTP/2 preface, say).
 */
function forwardedHead(head: Uint8Array, addressValue: string): Uint8Array | undefined {
  // latin1 keeps every byte as it is, so header values pass through untouched.
  const text = latin1(head);
  const lines = text.replace(/\r?\n\r?\n$/, "").split(/\r?\n/);
  const requestLine = lines[0] ?? "";
  if (!/ HTTP\/1\.[01]$/.test(requestLine)) return undefined;
  const kept = lines.slice(1).filter((line) => {
    const colon = line.indexOf(":");
    return colon < 0 || !DROPPED_HEADERS.has(line.slice(0, colon).trim().toLowerCase());
  });
  const out = [requestLine, ...kept, "connection: close", `${ADDRESS_HEADER}: ${addressValue}`];
  return fromLatin1(`${out.join("\r\n")}\r\n\r\n`);
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

function fromLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

async function answerAndClose(
  client: Deno.Conn,
  status: 408 | 414 | 431,
  type: "timeout" | "invalid_request",
  message: string,
): Promise<void> {
  const body = JSON.stringify({ error: { type, message } });
  const reason =
    { 408: "Request Timeout", 414: "URI Too Long", 431: "Request Header Fields Too Large" }[status];
  const response = `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\n` +
    `content-length: ${new TextEncoder().encode(body).length}\r\nconnection: close\r\n` +
    `cache-control: no-store\r\nx-content-type-options: nosniff\r\n\r\n${body}`;
  // A client that stopped reading cannot hold this write: it is bounded by the same deadline.
  const guard = setTimeout(() => closeQuietly(client), 5_000);
  try {
    await writeAll(client, new TextEncoder().encode(response));
  } catch {
    /* gone */
  } finally {
    clearTimeout(guard);
    closeQuietly(client);
  }
}

async function pump(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(16 * 1024);
  while (true) {
    const count = await from.read(buffer);
    if (count === null) return;
    await writeAll(to, buffer.subarray(0, count));
  }
}

async function writeAll(to: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await to.write(bytes.subarray(written));
}

function closeQuietly(connection: Deno.Conn): void {
  try {
    connection.close();
  } catch { /* already closed */ }
}
