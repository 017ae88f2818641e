/**
 * HTTP/1.1 over a raw `Deno.connect` socket, read as a client library would:
 * responses one after another on one connection (keep-alive, pipelining),
 * bodies framed by `content-length` or `transfer-encoding: chunked`, and the
 * moment the server closes the socket. For tests of what `Deno.serve` (or a
 * proxy) does on the wire, where `fetch` would hide it.
 */

export type RawResponse = {
  status: number;
  /** Header lines as sent: lower-cased name and value, in order, duplicates kept. */
  headers: [string, string][];
  body: string;
  /** When the body arrived in several reads: the text of each, in order (chunked bodies). */
  arrivals: { at: number; text: string }[];
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class RawConnection {
  #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  #closed = false;

  private constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  static async open(port: number, hostname = "127.0.0.1"): Promise<RawConnection> {
    return new RawConnection(await Deno.connect({ hostname, port }));
  }

  async send(text: string): Promise<void> {
    const bytes = encoder.encode(text);
    let written = 0;
    while (written < bytes.length) written += await this.#conn.write(bytes.subarray(written));
  }

  /** Half-closes: the server reads end-of-stream, and may still answer. */
  async closeWrite(): Promise<void> {
    await this.#conn.closeWrite();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }

  /** One more read into the buffer; false when the server closed the socket. */
  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    const count = await this.#conn.read(chunk);
    if (count === null) return false;
    const grown = new Uint8Array(this.#buffer.length + count);
    grown.set(this.#buffer);
    grown.set(chunk.subarray(0, count), this.#buffer.length);
    this.#buffer = grown;
    return true;
  }

  #take(length: number): string {
    const text = decoder.decode(this.#buffer.subarray(0, length));
    this.#buffer = this.#buffer.slice(length);
    return text;
  }

  async #line(): Promise<string> {
    while (true) {
      const end = this.#buffer.indexOf(0x0a);
      if (end >= 0) return this.#take(end + 1).replace(/\r?\n$/, "");
      if (!await this.#fill()) throw new Error("the server closed the connection mid-response");
    }
  }

  async #exactly(length: number): Promise<string> {
    while (this.#buffer.length < length) {
      if (!await this.#fill()) throw new Error("the server closed the connection mid-body");
    }
    return this.#take(length);
  }

  /** Reads the next whole response (bounded by `guardMs`: then the socket is closed and this throws). */
  async response(guardMs = 20_000): Promise<RawResponse> {
    const guard = setTimeout(() => this.close(), guardMs);
    try {
      const statusLine = await this.#line();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (!status) throw new Error(`not a status line: ${statusLine}`);
      const headers: [string, string][] = [];
      while (true) {
        const line = await this.#line();
        if (line === "") break;
        const colon = line.indexOf(":");
        headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
      }
      const header = (name: string) => headers.find(([key]) => key === name)?.[1];
      const arrivals: { at: number; text: string }[] = [];
      if (header("transfer-encoding")?.toLowerCase() === "chunked") {
        while (true) {
          const size = parseInt(await this.#line(), 16);
          if (size === 0) {
            while (await this.#line() !== "") { /* trailers */ }
            break;
          }
          arrivals.push({ at: performance.now(), text: await this.#exactly(size) });
          await this.#line();
        }
      } else {
        const length = Number(header("content-length") ?? 0);
        if (length > 0) arrivals.push({ at: performance.now(), text: await this.#exactly(length) });
      }
      return { status, headers, body: arrivals.map((a) => a.text).join(""), arrivals };
    } finally {
      clearTimeout(guard);
    }
  }

  /** Resolves true once the server closes the socket (nothing more to read), false after `guardMs`. */
  async closedByServer(guardMs: number): Promise<boolean> {
    let timedOut = false;
    const guard = setTimeout(() => {
      timedOut = true;
      this.close();
    }, guardMs);
    try {
      while (await this.#fill()) { /* discard what else comes */ }
      return !timedOut;
    } catch {
      return !timedOut;
    } finally {
      clearTimeout(guard);
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** A request's text: `body` as JSON with its length, `connection` left to the caller's `headers`. */
export function rawRequest(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): string {
  const body = options.body === undefined ? "" : JSON.stringify(options.body);
  const lines = [`${method} ${path} HTTP/1.1`, "host: 127.0.0.1"];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    lines.push(`${name}: ${value}`);
  }
  if (options.body !== undefined) {
    lines.push("content-type: application/json", `content-length: ${encoder.encode(body).length}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** Header names sent more than once. */
export function duplicatedHeaders(response: RawResponse): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const [name] of response.headers) (seen.has(name) ? twice : seen).add(name);
  return [...twice];
}
