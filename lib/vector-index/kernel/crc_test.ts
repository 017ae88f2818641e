import assert from "node:assert/strict";
import { crc32 } from "../crc32.ts";
import { mulberry32 } from "../random.ts";
import { fastCrc32 } from "./crc.ts";

Deno.test("fastCrc32 gives zlib's check value and the JS crc32's value at every length", () => {
  assert.equal(fastCrc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  const random = mulberry32(1);
  // Past the 1 MiB window too, and lengths that leave a tail of 1-7 bytes.
  for (const length of [0, 4095, 4096, 4103, 65_537, (1 << 20) + 13, 3 * (1 << 20)]) {
    const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
    assert.equal(fastCrc32(bytes), crc32(bytes), `length ${length}`);
  }
});

Deno.test("fastCrc32 and crc32 continue a CRC over bytes written in pieces", () => {
  const bytes = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 2654435761) >>> 24);
  for (const cut of [0, 1, 4095, 4096, 1 << 20, (3 << 20) - 5]) {
    const [a, b] = [bytes.subarray(0, cut), bytes.subarray(cut)];
    assert.equal(fastCrc32(b, fastCrc32(a)), fastCrc32(bytes), `cut at ${cut}`);
    assert.equal(crc32(b, crc32(a)), crc32(bytes), `cut at ${cut}`);
  }
});
