/**
 * The local server from outside, as a new user would meet it: a huge chunked
 * upload is cut off at the limit without the process's memory following it,
 * and the loopback `Host` guard (which only `main.ts` installs) refuses names
 * that are not this machine's.
 */
import assert from "node:assert/strict";
import { LIMITS } from "../../shared/limits.ts";
import { startService } from "./service.ts";

const ENV = { DEMO_CORPUS: "false", SIFT_DATA_DIR: "" };

/** The process's resident memory in bytes, from `/proc/<pid>/status`. */
async function residentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  assert.ok(kib, "no VmRSS line");
  return Number(kib) * 1024;
}

/** 64 MiB of JSON-ish bytes in 64 KiB chunks; `sent()` says how many were pulled. */
function chunkedBody(totalBytes: number, chunkBytes: number) {
  const chunk = new TextEncoder().encode("x".repeat(chunkBytes));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, sent: () => pulled };
}

/** One raw HTTP/1.1 request, so the `Host` header is exactly what a browser would send. */
async function rawGet(port: number, host: string, path: string): Promise<string> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    await connection.write(new TextEncoder().encode(request));
    let reply = "";
    for await (const bytes of connection.readable) reply += new TextDecoder().decode(bytes);
    return reply;
  } catch (error) {
    connection.close();
    throw error;
  }
}

Deno.test({
  name: "main.ts refuses a 64 MiB chunked body with 413 while its RSS grows by under 50 MB",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    await using service = await startService({ ...ENV, SIFT_DATA_DIR: dir });
    // Warm the route up so the comparison measures the upload, not first-request compilation.
    const warm = await fetch(`${service.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "warm up" }),
    });
    await warm.body?.cancel();
    const before = await residentBytes(service.pid);

    const total = 64 * 1024 * 1024;
    const body = chunkedBody(total, 64 * 1024);
    const response = await fetch(`${service.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    assert.equal(response.status, 413);
    assert.equal((await response.json()).error.type, "payload_too_large");
    const after = await residentBytes(service.pid);

    assert.ok(
      after - before < 50 * 1024 * 1024,
      `RSS grew by ${((after - before) / 1024 / 1024).toFixed(1)} MB`,
    );
    // The limit is 1 MiB: the server stopped reading long before the end of the upload.
    assert.ok(body.sent() < total, `all ${body.sent()} bytes were pulled`);
    assert.ok(LIMITS.bodyBytes < total);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  },
});

Deno.test({
  name: "main.ts on loopback answers 403 to Host: attacker.example, and serves loopback names",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    await using service = await startService({ ...ENV, SIFT_DATA_DIR: dir });
    const port = Number(new URL(service.url).port);

    const refused = await rawGet(port, "attacker.example", "/healthz");
    assert.match(refused, /^HTTP\/1\.1 403/);
    assert.match(refused, /"type":"forbidden"/);
    const rebound = await rawGet(port, `attacker.example:${port}`, "/healthz");
    assert.match(rebound, /^HTTP\/1\.1 403/);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "localhost", `[::1]:${port}`]) {
      assert.match(await rawGet(port, host, "/healthz"), /^HTTP\/1\.1 200/, host);
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  },
});
