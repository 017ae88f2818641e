import assert from "node:assert/strict";
import { PayloadTooLargeError, RequestTimeoutError } from "../errors.ts";
import { markFramedBody, readBodyBytes, readBodyText } from "./body.ts";

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

/** A body that sends `first` and then nothing more, ever. */
function stalledAfter(first: string) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
}

Deno.test("readBodyBytes() reads a framed body of declared length whole, and an unframed one as a stream", async () => {
  const framed = markFramedBody(post('{"query":"x"}', { "content-length": "13" }));
  assert.equal(new TextDecoder().decode(await readBodyBytes(framed, 1024)), '{"query":"x"}');
  // Not framed by a server: a length it declares is not trusted, and the limit holds mid-stream.
  const body = streamOf(1000, 1024);
  const lying = post(body.stream, { "content-length": "10" });
  await assert.rejects(() => readBodyBytes(lying, 10 * 1024), PayloadTooLargeError);
  assert.equal(body.pulled(), 11);
  // A framed request with no declared length is read chunk by chunk, limit included.
  const chunked = streamOf(1000, 1024);
  await assert.rejects(
    () => readBodyBytes(markFramedBody(post(chunked.stream)), 10 * 1024),
    PayloadTooLargeError,
  );
  assert.equal(chunked.pulled(), 11);
});

Deno.test("readBodyBytes() answers stalled framed bodies with a 408 each, at its own deadline", async () => {
  const started = performance.now();
  const stalled = (timeoutMs: number) =>
    readBodyBytes(
      markFramedBody(post(stalledAfter('{"query": "sta'), { "content-length": "100" })),
      1024,
      { timeoutMs },
    ).then(
      () => assert.fail("a stalled body was read"),
      (error: Error) => ({ error, after: performance.now() - started }),
    );
  // Deadlines out of order, a read that completes among them: one timer serves them all.
  const [late, early, whole] = await Promise.all([
    stalled(150),
    stalled(30),
    readBodyBytes(markFramedBody(post("{}", { "content-length": "2" })), 1024, { timeoutMs: 60 }),
  ]);
  assert.equal(new TextDecoder().decode(whole), "{}");
  for (const [{ error, after }, timeoutMs] of [[early, 30], [late, 150]] as const) {
    assert.ok(error instanceof RequestTimeoutError, String(error));
    assert.match(error.message, new RegExp(`within ${timeoutMs / 1000} s`));
    // The server closes the connection itself: a read it cannot cancel is still waiting.
    assert.equal(error.serverCloses, true);
    assert.ok(after >= timeoutMs - 5, `expired after ${after} ms, deadline ${timeoutMs}`);
  }
  assert.ok(early.after < late.after);
});
