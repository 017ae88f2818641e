import assert from "node:assert/strict";
import { sha256, sha256Hex } from "../../shared/hash.ts";
import { mulberry32 } from "../../shared/random.ts";

const webCrypto = async (bytes: Uint8Array<ArrayBuffer>) =>
  Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

Deno.test("sha256Hex gives FIPS 180-4's digests", async () => {
  assert.equal(
    await sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(
    await sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    await sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("the plain-JS SHA-256 equals Web Crypto's at every length around the block edges, and past the inline limit", async () => {
  const random = mulberry32(7);
  const lengths = [
    ...Array.from({ length: 140 }, (_, i) => i),
    1000,
    4095,
    8 * 1024,
    8 * 1024 + 1,
    100_000,
  ];
  for (const length of lengths) {
    const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
    assert.equal(hex(sha256(bytes)), await webCrypto(bytes), `length ${length}`);
  }
  // Text goes in as UTF-8, whichever path hashes it.
  for (const text of ["naïve café ✓", "日本語のクエリ", "x".repeat(20_000) + "é"]) {
    assert.equal(await sha256Hex(text), await webCrypto(new TextEncoder().encode(text)));
  }
});
