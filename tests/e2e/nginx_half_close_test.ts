/**
 * A client that half-closes its connection (shutdown(SHUT_WR)) right after
 * its request, then waits for the answer (#40), as docs/operations.md tells
 * it: `Deno.serve` alone closes the connection without an answer once the
 * answer is not ready at once (hyper takes the read EOF for a client that
 * left), and so does nginx on `deploy/nginx/sift.conf` as shipped
 * (`proxy_ignore_client_abort off`: the client's FIN ends the request, 499).
 * With `proxy_ignore_client_abort on` nginx waits for sift, which never sees
 * the half-close, and the client gets its answer. The answer takes a second
 * (the offline model's latency), so the FIN always comes first, however busy
 * the machine. Skips without nginx, except in CI.
 */
import assert from "node:assert/strict";
import { startService } from "./service.ts";
import { nginxOrSkip, startNginx } from "../helpers/nginx.ts";
import { RawConnection, rawRequest, type RawResponse } from "../helpers/raw_http.ts";

const { nginx, ignore } = nginxOrSkip("nginx_half_close_test");

/** Far past every deadline under test: a slow machine still passes, a hang still fails. */
const GUARD_MS = 20_000;

/**
 * The request, a half-close, then whatever comes back: a response, or none
 * before the close. Each `query` is asked once: no cached answer is ready at once.
 */
async function halfClosed(
  port: number,
  query: string,
): Promise<RawResponse | "closed without an answer"> {
  const body = { query, documents: ["sift ranks passages by more than relevance."] };
  using connection = await RawConnection.open(port);
  await connection.send(rawRequest("POST", "/v1/answer", { body }));
  await connection.closeWrite();
  try {
    return await connection.response(GUARD_MS);
  } catch (error) {
    const closed = error instanceof Deno.errors.ConnectionReset ||
      /closed the connection mid-response/.test(String(error));
    if (closed) return "closed without an answer";
    throw error;
  }
}

Deno.test({
  name: "a half-closing client: no answer from Deno.serve nor nginx as shipped; " +
    "answered through nginx with proxy_ignore_client_abort on",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using sift = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
      OFFLINE_MODEL_LATENCY: "ttft=1000ms",
    });
    const siftPort = Number(new URL(sift.url).port);

    await t.step("Deno.serve alone closes the connection unanswered", async () => {
      assert.equal(
        await halfClosed(siftPort, "What does sift rank, straight?"),
        "closed without an answer",
        "Deno.serve answered a half-closed connection: update docs/operations.md",
      );
    });

    await t.step("nginx as shipped ends the request at the client's FIN (499)", async () => {
      await using proxy = await startNginx(nginx, siftPort);
      const response = await halfClosed(proxy.port, "What does sift rank, as shipped?");
      assert.equal(response, "closed without an answer");
      assert.match(await proxy.errorLog(), /client prematurely closed connection/);
    });

    await t.step("nginx with proxy_ignore_client_abort on waits for sift and answers", async () => {
      await using proxy = await startNginx(nginx, siftPort, { proxy_ignore_client_abort: "on" });
      const response = await halfClosed(proxy.port, "What does sift rank, waited for?");
      assert.notEqual(response, "closed without an answer", await proxy.errorLog());
      const { status, body } = response as RawResponse;
      assert.equal(status, 200, body);
      assert.equal(JSON.parse(body).answered, true, body);
    });
  },
});
