import assert from "node:assert/strict";
import { ipv4Reason, ipv6Groups, ipv6Reason } from "./special-addresses.ts";
import { checkPublicUrl } from "./public-url.ts";

const v4 = (text: string) => text.split(".").map(Number);

Deno.test("ipv4Reason() refuses every block of the IPv4 special-purpose registry (RFC 6890)", () => {
  const special = [
    "0.1.2.3",
    "10.9.9.9",
    "100.64.0.1",
    "100.127.255.255",
    "127.8.8.8",
    "169.254.169.254",
    "172.16.0.1",
    "192.0.0.1",
    "192.0.0.170",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.0.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
  ];
  for (const address of special) assert.ok(ipv4Reason(v4(address)), address);
  for (const address of ["8.8.8.8", "1.1.1.1", "100.128.0.1", "172.32.0.1", "192.0.3.1"]) {
    assert.equal(ipv4Reason(v4(address)), undefined, address);
  }
});

Deno.test("ipv6Reason() judges IPv4-mapped, -translated, -compatible, NAT64 and 6to4 forms by the address they carry", () => {
  assert.match(ipv6Reason("::ffff:a9fe:a9fe")!, /link-local.*IPv4-mapped/);
  assert.match(ipv6Reason("::ffff:0:a9fe:a9fe")!, /link-local.*IPv4-translated/);
  assert.match(ipv6Reason("::a9fe:a9fe")!, /link-local.*IPv4-compatible/);
  assert.match(ipv6Reason("64:ff9b::a9fe:a9fe")!, /link-local.*NAT64/);
  assert.match(ipv6Reason("2002:a9fe:a9fe::")!, /link-local.*6to4/);
  assert.match(ipv6Reason("2002:7f00:1::1")!, /this machine.*6to4/);
  assert.match(ipv6Reason("2002:c000:1::")!, /IETF protocol assignment.*6to4/);
  // A public IPv4 address carried in any form is public.
  for (const address of ["::ffff:808:808", "64:ff9b::808:808", "2002:808:808::1"]) {
    assert.equal(ipv6Reason(address), undefined, address);
  }
});

Deno.test("ipv6Reason() refuses the IPv6 special-purpose blocks and anything outside global unicast", () => {
  const special = [
    "::",
    "::1",
    "64:ff9b:1::1",
    "100::1",
    "2001::1",
    "2001:2::1",
    "2001:db8::1",
    "3fff::1",
    "5f00::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fec0::1",
    "feff::1",
    "ff02::1",
    "4000::1",
  ];
  for (const address of special) assert.ok(ipv6Reason(address), address);
  for (const address of ["2606:4700::1111", "2a00:1450::1", "2620:4f:8000::1", "3fff:1000::1"]) {
    assert.equal(ipv6Reason(address), undefined, address);
  }
});

Deno.test("ipv6Groups() reads compressed, full and dotted-tail forms, and refuses malformed ones", () => {
  assert.deepEqual(ipv6Groups("::ffff:169.254.169.254"), [0, 0, 0, 0, 0, 0xffff, 0xa9fe, 0xa9fe]);
  assert.deepEqual(ipv6Groups("1:2:3:4:5:6:7:8"), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(ipv6Groups("1::2::3"), undefined);
  assert.equal(ipv6Groups("1:2:3"), undefined);
  assert.equal(ipv6Reason("zz::1"), "an unreadable IPv6 address");
});

Deno.test("checkPublicUrl() refuses the four addresses a review found admitted", () => {
  for (
    const url of [
      "https://[2002:a9fe:a9fe::]/hook",
      "https://[::ffff:0:a9fe:a9fe]/hook",
      "https://[fec0::1]/hook",
      "https://192.0.0.1/hook",
    ]
  ) {
    assert.match(checkPublicUrl(url) ?? "allowed", /^must not point at /, url);
  }
});
