import assert from "node:assert/strict";
import { ClientGoneError, clientWentAway } from "./client-gone.ts";

/** A POST whose body has been read from, or not. */
async function posted(read: boolean): Promise<Request> {
  const request = new Request("http://x/", { method: "POST", body: "{}" });
  if (read) await request.text();
  return request;
}

Deno.test("clientWentAway() is Deno's disconnect errors from a body read, and ClientGoneError", async () => {
  const reset = new Deno.errors.Http("unexpected EOF while reading HTTP/1 body");
  const closed = new Deno.errors.BadResource("Cannot read request body");
  assert.equal(clientWentAway(reset, await posted(true)), true);
  assert.equal(clientWentAway(closed, await posted(true)), true);
  assert.equal(clientWentAway(new Error("wrapped", { cause: closed }), await posted(true)), true);
  assert.equal(clientWentAway(new ClientGoneError(new Error("lost")), await posted(false)), true);
});

Deno.test("clientWentAway() is not a failure before the body is read, nor any other error", async () => {
  assert.equal(clientWentAway(new Deno.errors.BadResource("a file"), await posted(false)), false);
  assert.equal(clientWentAway(new Error("Network connection lost."), await posted(true)), false);
  assert.equal(clientWentAway(new TypeError("bug"), await posted(true)), false);
});
