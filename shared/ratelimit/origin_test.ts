import assert from "node:assert/strict";
import { addressKey, markInProcess, originOf, withClientAddress } from "./origin.ts";

Deno.test("addressKey() keys IPv4 by address and IPv6 by its /64", () => {
  assert.equal(addressKey("203.0.113.7"), "ip:203.0.113.7");
  assert.equal(addressKey("2001:db8:a:b:1:2:3:4"), "ip:2001:db8:a:b::/64");
  assert.equal(addressKey("2001:0db8:000a:000b::9"), "ip:2001:db8:a:b::/64");
  assert.equal(addressKey("[2001:db8::1]"), "ip:2001:db8:0:0::/64");
  assert.equal(addressKey("::1"), "ip:0:0:0:0::/64");
  assert.equal(addressKey("::ffff:198.51.100.2"), "ip:198.51.100.2");
  assert.equal(addressKey("fe80::1%eth0"), "ip:fe80:0:0:0::/64");
});

Deno.test("originOf() on Deno: marks set in the process decide, not headers a caller sends", () => {
  const forged = new Request("http://sift/v1/search", {
    headers: {
      "cf-connecting-ip": "198.51.100.9",
      "x-forwarded-for": "198.51.100.9",
      "x-sift-rate-limit-key": "ip:someone-else",
    },
  });
  assert.deepEqual(originOf(forged), { kind: "external" });
  const served = withClientAddress(new Request("http://sift/"), {
    transport: "tcp",
    hostname: "203.0.113.7",
  });
  assert.deepEqual(originOf(served), { kind: "external", address: "203.0.113.7" });
  const own = markInProcess(new Request("http://in-process/v1/search"));
  assert.deepEqual(originOf(own), { kind: "in-process" });
  assert.deepEqual(originOf(new Request(own)), { kind: "external" }, "a copy is not marked");
});

/** Runs `body` as if in workerd, whose `navigator.userAgent` is "Cloudflare-Workers". */
function asWorkers(body: () => void) {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, "userAgent")!;
  Object.defineProperty(Navigator.prototype, "userAgent", {
    configurable: true,
    get: () => "Cloudflare-Workers",
  });
  try {
    body();
  } finally {
    Object.defineProperty(Navigator.prototype, "userAgent", original);
  }
}

Deno.test("originOf() on Workers: cf-connecting-ip means the internet, its absence a binding", () => {
  asWorkers(() => {
    const request = (headers: Record<string, string>) =>
      originOf(new Request("https://sift/v1/search", { headers }));
    assert.deepEqual(request({ "cf-connecting-ip": "203.0.113.7" }), {
      kind: "external",
      address: "203.0.113.7",
    });
    assert.deepEqual(
      request({ "cf-connecting-ip": "203.0.113.7", "x-sift-rate-limit-key": "ip:other" }),
      { kind: "external", address: "203.0.113.7" },
      "a caller's own forwarded-key header counts for nothing",
    );
    assert.deepEqual(request({ "x-sift-rate-limit-key": "key:abc123" }), {
      kind: "forwarded",
      key: "key:abc123",
    });
    assert.deepEqual(request({ "x-sift-rate-limit-key": "nonsense with spaces" }), {
      kind: "internal",
    });
    assert.deepEqual(request({}), { kind: "internal" });
  });
  assert.notEqual(navigator.userAgent, "Cloudflare-Workers");
});

Deno.test("withClientAddress() reads X-Forwarded-For's last hop only from a trusted proxy", () => {
  const from = (connection: string, forwarded: string | undefined, trusted: string[]) =>
    originOf(withClientAddress(
      new Request("http://sift/", {
        headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
      }),
      { transport: "tcp", hostname: connection },
      trusted,
    ));
  // No proxy trusted: the header is the client's claim, never read.
  assert.deepEqual(from("127.0.0.1", "203.0.113.7", []), {
    kind: "external",
    address: "127.0.0.1",
  });
  // The trusted proxy's own hop is the last one; what the client put before it is ignored.
  assert.deepEqual(from("127.0.0.1", "198.51.100.1, 203.0.113.7", ["127.0.0.1", "::1"]), {
    kind: "external",
    address: "203.0.113.7",
  });
  assert.deepEqual(from("::ffff:127.0.0.1", "2001:db8::5", ["127.0.0.1"]), {
    kind: "external",
    address: "2001:db8::5",
  });
  // A connection from elsewhere is not the proxy, whatever it sends.
  assert.deepEqual(from("192.0.2.4", "203.0.113.7", ["127.0.0.1"]), {
    kind: "external",
    address: "192.0.2.4",
  });
  // A trusted proxy that sent no address (or garbage) leaves the connection's.
  assert.deepEqual(from("127.0.0.1", undefined, ["127.0.0.1"]), {
    kind: "external",
    address: "127.0.0.1",
  });
  assert.deepEqual(from("127.0.0.1", "unknown", ["127.0.0.1"]), {
    kind: "external",
    address: "127.0.0.1",
  });
});
