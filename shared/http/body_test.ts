import assert from "node:assert/strict";
import { PayloadTooLargeError, RequestTimeoutError } from "../errors.ts";
import { readBodyBytes, readBodyText } from "./body.ts";

function streamOf(chunks: number, chunkBytes: number) {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(97));
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 }); // pulled only when read, so `pulled` counts what the reader took
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return new Request(
    "http://sift.test/",
    { method: "POST", body, headers, duplex: "half" } as RequestInit,
  );
}

Deno.test("readBodyBytes() stops reading a stream one chunk past the limit and cancels it", async () => {
  const body = streamOf(1000, 1024);
  await assert.rejects(() => readBodyBytes(post(body.stream), 10 * 1024), PayloadTooLargeError);
  assert.equal(body.pulled(), 11);
  assert.ok(body.cancelled());
});

Deno.test("readBodyBytes() refuses a declared content-length over the limit before reading", async () => {
  const body = streamOf(1, 10);
  const request = post(body.stream, { "content-length": "2048" });
  await assert.rejects(() => readBodyBytes(request, 1024), /exceeds the 1 KiB limit/);
  assert.equal(body.pulled(), 0);
});

Deno.test("readBodyBytes() returns every byte of a body at the limit, across chunks", async () => {
  const body = streamOf(4, 256);
  const bytes = await readBodyBytes(post(body.stream), 1024);
  assert.equal(bytes.byteLength, 1024);
  assert.ok(bytes.every((byte) => byte === 97));
  assert.equal(await readBodyText(post("héllo"), 6), "héllo");
  assert.equal((await readBodyBytes(new Request("http://sift.test/"), 10)).byteLength, 0);
});

Deno.test("readBodyBytes() cancels a body that stalls past its deadline, with a 408", async () => {
  let cancelled = false;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"query": "sta'));
      // and nothing more, ever
    },
    cancel() {
      cancelled = true;
    },
  });
  await assert.rejects(
    () => readBodyBytes(post(stalled), 1024, { timeoutMs: 20 }),
    (error: Error) => error instanceof RequestTimeoutError && /within 0.02 s/.test(error.message),
  );
  assert.equal(cancelled, true);
});
