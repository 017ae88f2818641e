/**
 * The Deno entries' front (#23, shared/deno/http-front.ts), through a real
 * `deno task start` process on loopback: a head that stalls is cut at
 * HEADER_READ_TIMEOUT_MS, an oversized one gets a JSON 414/431 (Deno.serve's
 * own answer is an empty 400), everything else reaches sift as before (a
 * plain request, a streamed /v1/query, keep-alive clients) and the client's
 * own address, not one it claims, drives the failed-auth throttle.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { Buffer } from "node:buffer";
import { startService } from "./service.ts";

/** Far past every deadline under test: a slow machine still passes, a hang still fails. */
const GUARD_MS = 20_000;

type Raw = { text: string; closedByServer: boolean };

/**
 * Sends `chunks` over one connection from `localAddress` (one chunk every
 * `gapMs`), then reads until the server closes it or the guard passes.
 */
function raw(
  port: number,
  chunks: string[],
  options: { localAddress?: string; gapMs?: number } = {},
): Promise<Raw> {
  return new Promise((resolve) => {
    const socket = net.connect({
      host: "127.0.0.1",
      port,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let text = "";
    let settled = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      socket.destroy();
      resolve({ text, closedByServer });
    };
    timers.push(setTimeout(() => finish(false), GUARD_MS));
    socket.on("data", (data: Buffer) => text += data.toString("latin1"));
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", () => {
      chunks.forEach((chunk, i) =>
        timers.push(setTimeout(() => {
          if (!settled) socket.write(chunk);
        }, i * (options.gapMs ?? 0)))
      );
    });
  });
}

function bodyOf(text: string): { error: { type: string; message: string } } {
  return JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
}

Deno.test({
  name: "the front bounds the request head, keeps sift's answers, and passes the client address",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using service = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
      HEADER_READ_TIMEOUT_MS: "500",
      API_KEYS: "ka:acme",
      AUTH_FAILURES_PER_MINUTE: "3",
      // The answer comes a second after retrieval: a front that buffered would send both at once.
      OFFLINE_MODEL_LATENCY: "ttft=1000ms",
    });
    const port = Number(new URL(service.url).port);
    const auth = { authorization: "Bearer ka" };

    await t.step("half a head, then nothing: a JSON 408 and the connection closed", async () => {
      const answer = await raw(port, ["GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n"]);
      assert.ok(answer.closedByServer, `still open after ${GUARD_MS} ms: ${answer.text}`);
      assert.match(answer.text, /^HTTP\/1\.1 408 /);
      assert.match(answer.text, /content-type: application\/json/i);
      assert.equal(bodyOf(answer.text).error.type, "timeout");
      assert.match(bodyOf(answer.text).error.message, /within 0.5 s/);
    });

    await t.step(
      "a head trickled a byte at a time is cut too (the deadline runs from accept)",
      async () => {
        const head = "GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: " + "a".repeat(200);
        const answer = await raw(port, [...head], { gapMs: 50 });
        assert.ok(answer.closedByServer, "a trickling client holds the connection");
        assert.match(answer.text, /^HTTP\/1\.1 408 /);
      },
    );

    await t.step("a 100 kB URL gets a JSON 414", async () => {
      // (Deno's fetch refuses such a URL itself: a raw request, as curl would send it.)
      const answer = await raw(port, [
        `GET /v1/search?q=${"a".repeat(100_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
      ]);
      assert.match(answer.text, /^HTTP\/1\.1 414 /);
      assert.match(answer.text, /content-type: application\/json/i);
      assert.equal(bodyOf(answer.text).error.type, "invalid_request");
      assert.match(bodyOf(answer.text).error.message, /request line/);
    });

    await t.step("70 kB of headers get a JSON 431", async () => {
      const answer = await raw(port, [
        `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${"b".repeat(70_000)}\r\n\r\n`,
      ]);
      assert.match(answer.text, /^HTTP\/1\.1 431 /);
      assert.match(answer.text, /content-type: application\/json/i);
      assert.equal(bodyOf(answer.text).error.type, "invalid_request");
    });

    await t.step("a plain request and a keep-alive pair reach sift", async () => {
      const health = await fetch(`${service.url}/healthz`);
      assert.equal(health.status, 200);
      assert.ok((await health.json()).status);
      // fetch keeps connections alive: the second request goes on as the first was answered.
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${service.url}/v1/models`, { headers: auth });
        assert.equal(response.status, 200, `request ${i}`);
        await response.body?.cancel();
      }
      // A raw client asking for keep-alive, two requests pipelined: the first is answered
      // with `connection: close` (one request per connection), and the connection ends.
      const request = "GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n";
      const answer = await raw(port, [request + request]);
      assert.ok(answer.closedByServer);
      assert.match(answer.text, /^HTTP\/1\.1 200 /);
      assert.match(answer.text, /\r\nconnection: close\r\n/i);
      assert.equal(answer.text.match(/HTTP\/1\.1 /g)?.length, 1);
    });

    await t.step("a head ended by bare line feeds is read as Deno.serve would", async () => {
      const answer = await raw(port, ["GET /healthz HTTP/1.1\nhost: 127.0.0.1\n\n"]);
      assert.match(answer.text, /^HTTP\/1\.1 200 /);
    });

    await t.step("/v1/query streams its events through the front", async () => {
      // A passage to answer from, so the (slow) model is called after retrieval.
      const ingested = await fetch(`${service.url}/v1/documents`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          documents: [{ id: "sift", text: "sift ranks passages by more than relevance." }],
        }),
      });
      assert.equal(ingested.status, 201, await ingested.text());
      const response = await fetch(`${service.url}/v1/query`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ query: "What does sift rank?" }),
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let first = "";
      while (!first.includes("event: retrieval-end")) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the stream ended before retrieval-end: ${first}`);
        first += value;
      }
      assert.doesNotMatch(first, /answer-end/, "retrieval-end was held back until the answer");
      let rest = "";
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        rest += value;
      }
      assert.match(rest, /event: answer-end/);
    });

    await t.step(
      "the client's address drives the failed-auth throttle; a claimed one does not",
      async () => {
        const wrong =
          "GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer nope\r\n";
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const answer = await raw(port, [wrong + "\r\n"]);
          statuses.push(Number(answer.text.slice(9, 12)));
        }
        assert.deepEqual(statuses, [401, 401, 401, 429]);
        // Claiming another address in the front's own header changes nothing.
        const spoofed = await raw(port, [
          wrong + "x-sift-client-address: 203.0.113.9\r\n" +
          "X-Sift-Client-Address: anything 203.0.113.9\r\n\r\n",
        ]);
        assert.match(spoofed.text, /^HTTP\/1\.1 429 /);
        // Another loopback address is another client: not throttled.
        const other = await raw(port, [wrong + "\r\n"], { localAddress: "127.0.0.2" });
        assert.match(other.text, /^HTTP\/1\.1 401 /);
      },
    );
  },
});
