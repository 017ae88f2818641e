/**
 * The reverse proxy sift ships for internet-facing hosts (#29): Debian's nginx
 * on `deploy/nginx/sift.conf`, in front of a real `deno task start` process.
 * nginx cuts a request head that stalls while other clients are served, passes
 * `/v1/query`'s events as they are written, and tells sift the client's address
 * in `X-Forwarded-For`, which sift believes from a trusted proxy
 * (`TRUSTED_PROXIES`) and from no one else. Skips without nginx, except in CI.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { Buffer } from "node:buffer";
import { startService } from "./service.ts";
import { nginxOrSkip, startNginx } from "../helpers/nginx.ts";
import { RawConnection } from "../helpers/raw_http.ts";

const { nginx, ignore } = nginxOrSkip("nginx_proxy_test");

/** Far past every deadline under test: a slow machine still passes, a hang still fails. */
const GUARD_MS = 20_000;

/** One request with `connection: close` from `localAddress`; the status line's code. */
function statusFrom(port: number, request: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress });
    let text = "";
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${GUARD_MS} ms: ${text}`));
    }, GUARD_MS);
    const finish = () => {
      clearTimeout(guard);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      status ? resolve(status) : reject(new Error(`not a response: ${text}`));
    };
    socket.on("data", (data: Buffer) => text += data.toString("latin1"));
    socket.on("end", finish);
    socket.on("error", finish);
    socket.on("connect", () => socket.write(request));
  });
}

function wrongKey(extraHeaders = "", host = "sift.example"): string {
  return `GET /v1/models HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer nope\r\n` +
    `connection: close\r\n${extraHeaders}\r\n`;
}

Deno.test({
  name: "nginx in front of sift: cuts stalled heads, streams events, passes the client's address",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using sift = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
      API_KEYS: "ka:acme",
      AUTH_FAILURES_PER_MINUTE: "3",
      TRUSTED_PROXIES: "127.0.0.1",
      // The answer comes a second after retrieval: a proxy that buffered would send both at once.
      OFFLINE_MODEL_LATENCY: "ttft=1000ms",
    });
    await using proxy = await startNginx(nginx, Number(new URL(sift.url).port), {
      client_header_timeout: "1s",
    });
    const auth = { authorization: "Bearer ka" };

    await t.step(
      "a stalled request head is cut by nginx while another client is served",
      async () => {
        using stalled = await RawConnection.open(proxy.port);
        await stalled.send("GET /healthz HTTP/1.1\r\nhost: sift.example\r\n");
        // Meanwhile, another client gets its answer through the same nginx.
        const meanwhile = await fetch(`${proxy.url}/healthz`);
        assert.equal(meanwhile.status, 200);
        assert.ok((await meanwhile.json()).providers);
        assert.ok(
          await stalled.closedByServer(GUARD_MS),
          `nginx kept a stalled head open:\n${await proxy.errorLog()}`,
        );
        assert.match(await proxy.errorLog(), /client timed out/);
      },
    );

    await t.step("a request line over nginx's 8 KiB buffers gets 414 from nginx", async () => {
      // (Deno.serve alone answers a head over 64 KiB with an empty 400; nginx stops it earlier.)
      using connection = await RawConnection.open(proxy.port);
      await connection.send(
        `GET /v1/search?q=${"a".repeat(10_000)} HTTP/1.1\r\nhost: sift.example\r\n\r\n`,
      );
      const answer = await connection.response(GUARD_MS);
      assert.equal(answer.status, 414);
      assert.match(answer.headers.find(([name]) => name === "server")?.[1] ?? "", /nginx/);
    });

    await t.step("/v1/query's events arrive one by one through nginx", async () => {
      const ingested = await fetch(`${proxy.url}/v1/documents`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          documents: [{ id: "sift", text: "sift ranks passages by more than relevance." }],
        }),
      });
      assert.equal(ingested.status, 201, await ingested.text());
      const response = await fetch(`${proxy.url}/v1/query`, {
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
      assert.match(rest, /event: done/);
    });

    await t.step(
      "the throttle counts the address nginx saw, not one the client claims",
      async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          // Each claims another address: nginx overwrites X-Forwarded-For with the real one.
          const claim = `x-forwarded-for: 198.51.100.${i + 1}\r\n`;
          statuses.push(await statusFrom(proxy.port, wrongKey(claim), "127.0.0.1"));
        }
        assert.deepEqual(statuses, [401, 401, 401, 429]);
        // Another client of nginx (another loopback address) is counted on its own.
        assert.equal(await statusFrom(proxy.port, wrongKey(), "127.0.0.2"), 401);
      },
    );

    await t.step(
      "a client's own X-Forwarded-For is not believed from an untrusted address",
      async () => {
        // Straight to sift from 127.0.0.3 (not in TRUSTED_PROXIES), a new address each time.
        const siftPort = Number(new URL(sift.url).port);
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const claim = `x-forwarded-for: 203.0.113.${i + 1}\r\n`;
          statuses.push(await statusFrom(siftPort, wrongKey(claim, "localhost"), "127.0.0.3"));
        }
        assert.deepEqual(statuses, [401, 401, 401, 429], "counted at 127.0.0.3 each time");
      },
    );
  },
});
