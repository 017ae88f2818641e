import assert from "node:assert/strict";
import { crc32 } from "./crc32.ts";
import { prepareChunk } from "./prepared.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "./record.ts";

const chunk = (id: string, text: string, vector: number[], extra: Record<string, unknown> = {}) =>
  prepareChunk({
    id,
    text,
    vector,
    metadata: { doc_id: id.split("#")[0]!, chunk_index: 0, ...extra },
  });

const records: IndexRecord[] = [
  {
    namespace: "default",
    remove: ["old"],
    put: [
      chunk("a#0", "Models modelling models", [0, 3, 0, 4], { title: "Ünïcödé ✓", year: 2020 }),
      chunk("b#0", "", [1, 0, 0, 0]),
      chunk("c#0", "one two three four five", [0, 0, 0, 0]),
    ],
  },
  { namespace: "other", remove: ["a", "b"], put: [] },
];

Deno.test("crc32 matches zlib's check values", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  assert.equal(crc32(bytes("123456789")), 0xcbf43926);
  assert.equal(crc32(bytes("")), 0);
  assert.equal(crc32(bytes("a")), 0xe8b7be43);
  assert.equal(crc32(bytes("abcdefghij")), 0x3981703a);
});

Deno.test("records round-trip through the binary log format", () => {
  const bytes = new Uint8Array(records.flatMap((record) => [...encodeRecord(record)]));
  const { records: decoded, validBytes, damagedAt } = decodeRecords(bytes);
  assert.equal(validBytes, bytes.length);
  assert.equal(damagedAt, undefined);
  assert.equal(decoded.length, 2);
  decoded.forEach((record, r) => {
    assert.equal(record.namespace, records[r]!.namespace);
    assert.deepEqual(record.remove, records[r]!.remove);
    record.put.forEach((chunk, c) => {
      const original = records[r]!.put[c]!;
      const plain = (c: typeof chunk) => ({
        id: c.id,
        text: c.text,
        metadata: c.metadata,
        dimensions: c.dimensions,
        length: c.length,
        terms: [...c.terms],
        dims: [...c.dims],
        values: [...c.values],
        counts: [...c.counts],
      });
      assert.deepEqual(plain(chunk), plain(original));
    });
  });
});

Deno.test("a torn last record ends the log; damage before the end is reported", () => {
  const first = encodeRecord(records[0]!);
  const second = encodeRecord(records[1]!);
  const torn = new Uint8Array([...first, ...second.subarray(0, second.length - 1)]);
  const tornRead = decodeRecords(torn);
  assert.equal(tornRead.records.length, 1);
  assert.equal(tornRead.validBytes, first.length);
  assert.equal(tornRead.damagedAt, undefined);

  const flipped = new Uint8Array([...first, ...second]);
  flipped[12] = flipped[12]! ^ 1;
  const damaged = decodeRecords(flipped);
  assert.equal(damaged.records.length, 0);
  assert.equal(damaged.damagedAt, 0);

  const lastFlipped = new Uint8Array([...first, ...second]);
  lastFlipped[first.length + 12] = lastFlipped[first.length + 12]! ^ 1;
  const tail = decodeRecords(lastFlipped);
  assert.equal(tail.records.length, 1);
  assert.equal(tail.damagedAt, undefined, "a bad last frame is a torn append");
});

Deno.test("a damaged length that runs past the end, with whole records after it, is damage, not a torn append", () => {
  const first = encodeRecord(records[1]!);
  const second = encodeRecord(records[0]!);
  const third = encodeRecord(records[1]!);
  const log = new Uint8Array([...first, ...second, ...third]);
  log[first.length + 3] = 0x7f; // the second record's length now claims ~2 GB
  const read = decodeRecords(log);
  assert.equal(read.records.length, 1);
  assert.equal(read.damagedAt, first.length, "the log is not cut: the third record follows");

  const tornLength = new Uint8Array([...first, ...second]);
  tornLength[first.length + 3] = 0x7f;
  assert.equal(decodeRecords(tornLength).damagedAt, undefined, "nothing whole after it: torn");
});

Deno.test("a zero-length frame is no record, and zeros to the end are a torn append", () => {
  const first = encodeRecord(records[1]!);
  // A crash can leave the file longer than what reached the disk: its end reads as zeros.
  const zeroTail = new Uint8Array([...first, ...new Uint8Array(4096)]);
  const read = decodeRecords(zeroTail);
  assert.equal(read.records.length, 1);
  assert.equal(read.validBytes, first.length);
  assert.equal(read.damagedAt, undefined);

  // A zero-length frame (CRC 0 matches an empty payload) with a record after it is damage.
  const zeroFrame = new Uint8Array([...first, ...new Uint8Array(8), ...first]);
  const damaged = decodeRecords(zeroFrame);
  assert.equal(damaged.records.length, 1);
  assert.equal(damaged.damagedAt, first.length);

  // A frame whose payload is shorter than its header's length field is no record either.
  const short = new Uint8Array([2, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  new DataView(short.buffer).setUint32(4, crc32(short.subarray(8)), true);
  assert.deepEqual(decodeRecords(short), { records: [], validBytes: 0 });
});
