import assert from "node:assert/strict";
import {
  guardLoopbackHost,
  guardsLoopbackHost,
  isLoopbackHost,
  isLoopbackHostname,
} from "./loopback-host.ts";

Deno.test("isLoopbackHost() takes loopback names with any port and nothing else", () => {
  for (
    const host of ["localhost", "LOCALHOST:8787", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8787"]
  ) {
    assert.ok(isLoopbackHost(host), host);
  }
  for (
    const host of [
      "attacker.example",
      "attacker.example:8787",
      "localhost.attacker.example",
      "127.0.0.1.nip.io",
      "::1",
      "[::2]:80",
      "10.0.0.1:8787",
      "",
      "localhost:8787:1",
    ]
  ) {
    assert.ok(!isLoopbackHost(host), host);
  }
});

Deno.test("guardsLoopbackHost() holds for loopback binds, not for 0.0.0.0 or on Deno Deploy", () => {
  assert.ok(guardsLoopbackHost("127.0.0.1", {}));
  assert.ok(guardsLoopbackHost("::1", {}));
  assert.ok(guardsLoopbackHost("localhost", {}));
  assert.ok(!guardsLoopbackHost("0.0.0.0", {}));
  assert.ok(!guardsLoopbackHost("127.0.0.1", { DENO_DEPLOYMENT_ID: "abc" }));
  assert.ok(!isLoopbackHostname("192.168.1.4"));
});

Deno.test("guardLoopbackHost() answers 403 to a foreign Host without calling the handler", async () => {
  const calls: string[] = [];
  const handle = guardLoopbackHost((request: Request) => {
    calls.push(new URL(request.url).host);
    return new Response("ok");
  });
  const refused = await handle(
    new Request("http://attacker.example:8787/healthz", {
      headers: { host: "attacker.example:8787" },
    }),
  );
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).error.type, "forbidden");
  assert.equal(refused.headers.get("x-content-type-options"), "nosniff");
  const served = await handle(new Request("http://127.0.0.1:8787/healthz"));
  assert.equal(served.status, 200);
  assert.deepEqual(calls, ["127.0.0.1:8787"]);
});
