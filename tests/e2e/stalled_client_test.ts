import assert from "node:assert/strict";
import { startService } from "./service.ts";

/**
 * Reads one whole HTTP response (head, then `content-length` bytes of body), or
 * what came before `guardMs` passed. (Deno.serve keeps the socket itself open
 * after answering a request whose body never came: that part is the runtime's.)
 */
async function readResponse(connection: Deno.Conn, guardMs: number): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(16 * 1024);
  let text = "";
  const guard = setTimeout(() => connection.close(), guardMs);
  try {
    while (true) {
      const end = text.indexOf("\r\n\r\n");
      const length = Number(text.match(/content-length: (\d+)/i)?.[1] ?? NaN);
      if (end >= 0 && text.length - end - 4 >= length) return text;
      const read = await connection.read(buffer);
      if (read === null) return text;
      text += decoder.decode(buffer.subarray(0, read));
    }
  } catch {
    return `${text}\n(no whole response after ${guardMs} ms)`;
  } finally {
    clearTimeout(guard);
    try {
      connection.close();
    } catch { /* closed by the guard */ }
  }
}

Deno.test({
  name: "a client that stalls mid-body gets a JSON 408 once BODY_READ_TIMEOUT_MS passes",
  sanitizeResources: false,
  async fn() {
    await using service = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
      BODY_READ_TIMEOUT_MS: "500",
    });
    const { port } = new URL(service.url);
    const connection = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    const head = "POST /v1/search HTTP/1.1\r\nhost: 127.0.0.1\r\n" +
      "content-type: application/json\r\ncontent-length: 100\r\n\r\n";
    await connection.write(new TextEncoder().encode(head + '{"query": "sta'));
    // Nothing more is sent. The guard is far past the deadline, so a slow machine still passes.
    const answer = await readResponse(connection, 30_000);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /content-type: application\/json/i);
    assert.match(answer, /"type":"timeout"/);
    assert.match(answer, /did not arrive within 0.5 s/);
  },
});
