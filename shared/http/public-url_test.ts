import assert from "node:assert/strict";
import { checkPublicUrl } from "./public-url.ts";

Deno.test("checkPublicUrl() refuses every spelling of loopback, private, link-local, metadata and unspecified hosts", () => {
  const refused = [
    "https://localhost/hook",
    "https://LOCALHOST./hook",
    "https://api.localhost/hook",
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://0x7f000001/hook",
    "https://2130706433/hook",
    "https://017700000001/hook",
    "https://[::1]/hook",
    "https://[0:0:0:0:0:0:0:1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:7f00:1]/hook",
    "https://[::ffff:169.254.169.254]/hook",
    "https://[64:ff9b::a9fe:a9fe]/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://metadata.google.internal/computeMetadata",
    "https://10.0.0.1/hook",
    "https://172.16.0.1/hook",
    "https://172.31.255.255/hook",
    "https://192.168.1.1/hook",
    "https://100.64.0.1/hook",
    "https://0.0.0.0/hook",
    "https://0/hook",
    "https://[::]/hook",
    "https://[fd00::1]/hook",
    "https://[fe80::1]/hook",
    "https://224.0.0.1/hook",
  ];
  for (const url of refused) {
    const why = checkPublicUrl(url);
    assert.match(why ?? "allowed", /^must not point at/, url);
  }
});

Deno.test("checkPublicUrl() takes public https URLs and refuses other schemes and credentials", () => {
  assert.equal(checkPublicUrl("https://hooks.example.com/sift?x=1"), undefined);
  assert.equal(checkPublicUrl("https://8.8.8.8/hook"), undefined);
  assert.equal(checkPublicUrl("https://172.32.0.1/hook"), undefined);
  assert.equal(checkPublicUrl("https://[2606:4700::1111]/hook"), undefined);
  assert.equal(checkPublicUrl("http://hooks.example.com/"), "must be an https URL");
  assert.equal(checkPublicUrl("ftp://hooks.example.com/"), "must be an https URL");
  assert.equal(checkPublicUrl("not a url"), "must be an absolute URL");
  assert.equal(checkPublicUrl("https://user:pw@hooks.example.com/"), "must not carry credentials");
});

Deno.test("checkPublicUrl() with allowPrivate takes loopback over http, for local testing", () => {
  assert.equal(checkPublicUrl("http://127.0.0.1:9999/hook", { allowPrivate: true }), undefined);
  assert.equal(
    checkPublicUrl("file:///etc/passwd", { allowPrivate: true }),
    "must be an https URL",
  );
});
