/**
 * The inner server behind the front (shared/deno/http-front.ts) takes the
 * client address from `x-sift-client-address` only with the process's
 * secret, and never lets the header (or the secret) reach sift.
 */
import assert from "node:assert/strict";
import { trustFront } from "../../shared/deno/http-front.ts";

const LOOPBACK: Deno.ServeHandlerInfo = {
  remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
};

function seen(value?: string) {
  let address = "";
  let header: string | null = "unset";
  const handle = trustFront("s3cret", (request, info) => {
    address = (info.remoteAddr as Deno.NetAddr).hostname;
    header = request.headers.get("x-sift-client-address");
    return new Response("ok");
  });
  const headers = value === undefined ? {} : { "x-sift-client-address": value };
  return Promise.resolve(handle(new Request("http://127.0.0.1/healthz", { headers }), LOOPBACK))
    .then(() => ({ address, header }));
}

Deno.test("the front's header with the secret gives the client's address, and is removed", async () => {
  assert.deepEqual(await seen("s3cret 203.0.113.7"), { address: "203.0.113.7", header: null });
});

Deno.test("without the secret the connection's own address counts, and the header is removed", async () => {
  assert.deepEqual(await seen("guess 203.0.113.7"), { address: "127.0.0.1", header: null });
  assert.deepEqual(await seen("s3cre 203.0.113.7"), { address: "127.0.0.1", header: null });
  assert.deepEqual(await seen("s3cret "), { address: "127.0.0.1", header: null });
  assert.deepEqual(await seen(), { address: "127.0.0.1", header: null });
});
