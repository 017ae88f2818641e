import assert from "node:assert/strict";
import { mulberry32 } from "./random.ts";
import { BitCodes } from "./bit-codes.ts";
import { CODES_FROM_ROWS, DenseVectors } from "./dense-vectors.ts";
import { DenseRows } from "./dense-rows.ts";
import { createDotKernel, dotKernelName, JsDotKernel } from "./kernel/kernel.ts";

function unitVector(random: () => number, width: number): Float32Array {
  const vector = Float32Array.from({ length: width }, () => random() * 2 - 1);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** `count` rows around `topics` in turn, each its topic plus `noise` times a random unit vector. */
function clusteredVectors(
  random: () => number,
  topics: Float32Array[],
  count: number,
  noise: number,
): DenseVectors {
  const width = topics[0]!.length;
  const vectors = new DenseVectors(width);
  for (let slot = 0; slot < count; slot++) {
    const away = unitVector(random, width);
    const vector = topics[slot % topics.length]!.map((value, d) => value + noise * away[d]!);
    const norm = Math.hypot(...vector);
    vectors.set(slot, vector.map((value) => value / norm));
  }
  return vectors;
}

Deno.test("the WebAssembly kernel and the JS kernel agree on dot products, Hamming distances and cuts over them", () => {
  assert.equal(dotKernelName(), "wasm-simd", "Deno compiles the SIMD kernel");
  const stride = 96, rows = 37, bytes = 64 * 1024;
  const kernels = [
    createDotKernel(bytes),
    createDotKernel(bytes, { shared: true }),
    new JsDotKernel(1),
  ];
  const random = mulberry32(7);
  const rowBytes = Int8Array.from(
    { length: rows * stride },
    () => Math.floor(random() * 255) - 127,
  );
  const query = Int16Array.from({ length: stride }, () => Math.floor(random() * 32767) - 16383);
  const slots = Uint32Array.from([5, 0, 36, 5, 17]);
  const results = kernels.map((kernel) => {
    const memory = kernel.memory.buffer;
    new Int8Array(memory, 0, rowBytes.length).set(rowBytes);
    new Int16Array(memory, 8192, stride).set(query);
    new Uint32Array(memory, 16384, slots.length).set(slots);
    kernel.scan(0, stride, rows, 8192, 20000);
    const scanned = new Int32Array(memory, 20000, rows).slice();
    kernel.gather(0, stride, 16384, slots.length, 8192, 20000);
    const gathered = new Int32Array(memory, 20000, slots.length).slice();
    // Hamming over 64-byte codes: the rows' bytes against the query's.
    kernel.hamming(0, 64, rows, 8192, 20000);
    const distances = new Int32Array(memory, 20000, rows).slice();
    kernel.hammingGather(0, 64, 16384, slots.length, 8192, 20000);
    const gatheredDistances = new Int32Array(memory, 20000, slots.length).slice();
    // 128-byte codes (1,024 bits), which the wasm kernel counts with the query held in locals.
    kernel.hamming(0, 128, 27, 8192, 20000);
    const distances128 = new Int32Array(memory, 20000, 27).slice();
    kernel.hammingGather(0, 128, 16384, 2, 8192, 20000);
    const gathered128 = new Int32Array(memory, 20000, 2).slice();
    // The distances' histogram (513 bins for 512-bit codes), and the rows at most a cut.
    kernel.hamming(0, 64, rows, 8192, 20000);
    new Uint32Array(memory, 30000, 513).fill(0);
    kernel.histogram(20000, rows, 30000);
    const histogram = new Uint32Array(memory, 30000, 513).slice();
    const cut = distances.slice().sort()[10]!;
    const picked = kernel.atMost(20000, rows, cut, 40000);
    const atMost = new Uint32Array(memory, 40000, picked).slice();
    return {
      scanned,
      gathered,
      distances,
      gatheredDistances,
      distances128,
      gathered128,
      histogram,
      atMost,
    };
  });
  assert.deepEqual(results[0], results[1]);
  assert.deepEqual(results[0], results[2]);
  assert.deepEqual(
    [...results[0]!.gathered128],
    [5, 0].map((slot) => results[0]!.distances128[slot]),
  );
  let expected = 0;
  for (let d = 0; d < stride; d++) expected += rowBytes[17 * stride + d]! * query[d]!;
  assert.equal(results[0]!.scanned[17], expected);
  assert.equal(results[0]!.gathered[4], expected);
  assert.deepEqual(
    [...results[0]!.gatheredDistances],
    [...slots].map((slot) => results[0]!.distances[slot]),
  );
  const { distances, histogram, atMost } = results[0]!;
  distances.forEach((distance) => histogram[distance]!--);
  assert.ok(histogram.every((count) => count === 0), "every distance counted once");
  const cut = distances.slice().sort()[10]!;
  assert.deepEqual([...atMost], [...distances.keys()].filter((row) => distances[row]! <= cut));
  assert.ok(atMost.length >= 11);
});

Deno.test("int8 rows score within 0.01 of the exact cosine, at any width", () => {
  const random = mulberry32(11);
  for (const width of [64, 100, 384, 1536]) {
    const vectors = Array.from({ length: 50 }, () => unitVector(random, width));
    const rows = new DenseRows(width);
    vectors.forEach((vector, slot) => rows.set(slot, vector));
    const query = unitVector(random, width);
    const scores = rows.scoreRange(query, 0, vectors.length);
    vectors.forEach((vector, slot) => {
      const exact = vector.reduce((sum, value, d) => sum + value * query[d]!, 0);
      assert.ok(
        Math.abs(scores[slot]! - exact) < 0.01,
        `${width}-d row ${slot}: ${scores[slot]} vs ${exact}`,
      );
    });
    const picked = Uint32Array.from([3, 40, 3]);
    const gathered = rows.scoreSlots(query, picked, picked.length);
    assert.deepEqual([...gathered], [scores[3], scores[40], scores[3]]);
  }
});

Deno.test("bit codes pick at least the wanted rows, and always the row a query equals", () => {
  const random = mulberry32(3);
  const width = 256;
  const vectors = Array.from({ length: 500 }, () => unitVector(random, width));
  const codes = new BitCodes(new Float32Array(width));
  vectors.forEach((vector, slot) => codes.set(slot, vector));
  // A row's own vector is at distance 0 from its code: it is always picked.
  for (const slot of [0, 123, 499]) {
    const picked = codes.nearest(vectors[slot]!, vectors.length, 20);
    assert.ok(picked.length >= 20, `picked ${picked.length}`);
    assert.ok(picked.includes(slot));
  }
  assert.equal(codes.nearest(vectors[0]!, vectors.length, 1000).length, 500);
});

Deno.test("past CODES_FROM_ROWS the search goes through bit codes and finds what scoring every row finds", () => {
  const random = mulberry32(5);
  const width = 1024;
  const topics = Array.from({ length: 50 }, () => unitVector(random, width));
  const count = CODES_FROM_ROWS + 2000;
  const vectors = clusteredVectors(random, topics, count, 0.8);
  assert.ok(vectors.bits, "bit codes started");
  const everyRow = () => true;
  let same = 0;
  for (let q = 0; q < 10; q++) {
    const query = topics[q]!;
    const found = vectors.search(query, count, 10, everyRow).map((hit) => hit.slot);
    // Asking for every row takes the exact path: every row scored, the best refined.
    const exact = vectors.search(query, count, count, everyRow).slice(0, 10).map((hit) => hit.slot);
    same += found.filter((slot) => exact.includes(slot)).length;
  }
  assert.ok(same >= 95, `${same} of 100`);
});

Deno.test("search() with `exact` below `limit` returns `limit` rows, the first `exact` as all-exact does", () => {
  const random = mulberry32(11);
  const width = 256;
  const topics = Array.from({ length: 20 }, () => unitVector(random, width));
  const count = 3000;
  const vectors = clusteredVectors(random, topics, count, 0.9);
  const everyRow = () => true;
  for (let q = 0; q < 5; q++) {
    const query = unitVector(random, width).map((value, d) => value + topics[q]![d]!);
    const norm = Math.hypot(...query);
    const normalized = query.map((value) => value / norm);
    const all = vectors.search(normalized, count, 150, everyRow);
    const topTen = vectors.search(normalized, count, 150, everyRow, undefined, 10);
    assert.equal(topTen.length, 150, "every row asked for, past the refined ones too");
    assert.deepEqual(topTen.slice(0, 10), all.slice(0, 10));
  }
});

Deno.test("on many rows, passes over the codes' first 256 bits, then their first 512, keep what the full codes pick", () => {
  const random = mulberry32(9);
  const width = 1024, count = 8000, wanted = 15;
  const topics = Array.from({ length: 40 }, () => unitVector(random, width));
  const vectors = Array.from({ length: count }, (_, slot) => {
    const noise = unitVector(random, width);
    const vector = topics[slot % topics.length]!.map((value, d) => value + 1.2 * noise[d]!);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
  const codes = new BitCodes(new Float32Array(width));
  vectors.forEach((vector, slot) => codes.set(slot, vector));
  // The full codes' distances, counted here: what a single pass would rank by.
  const sign = (vector: Float32Array) => vector.map((value) => value > 0 ? 1 : 0);
  const signs = vectors.map(sign);
  let kept = 0;
  for (const slot of [0, 7, 1999, 3999, 7999]) {
    // 15 wanted × 32 kept each × 16 rows per kept = 7,680 ≤ 8,000 rows: the first pass runs, and
    // the middle pass hands the full codes 15 × 4 of its 480.
    const picked = codes.nearest(vectors[slot]!, count, wanted);
    assert.ok(picked.length >= wanted, `picked ${picked.length}`);
    assert.ok(picked.includes(slot), "a row's own vector is always picked");
    const query = signs[slot]!;
    const best = signs.map((bits, row) => ({
      row,
      distance: bits.reduce((sum, bit, d) => sum + (bit ^ query[d]!), 0),
    })).sort((a, b) => a.distance - b.distance || a.row - b.row).slice(0, wanted);
    kept += best.filter(({ row }) => picked.includes(row)).length;
  }
  assert.ok(kept >= 0.9 * 5 * wanted, `${kept} of ${5 * wanted} full-code nearest kept`);
});

Deno.test("on many rows, bit codes pick exactly the rows at or under the wanted-th smallest Hamming distance", () => {
  const random = mulberry32(11);
  const width = 64, count = 70_000;
  const codes = new BitCodes(new Float32Array(width), count);
  for (let slot = 0; slot < count; slot++) codes.set(slot, unitVector(random, width));
  const stored = codes.codes(0, count).slice();
  const popcount = (byte: number) => {
    let bits = 0;
    for (; byte; byte &= byte - 1) bits++;
    return bits;
  };
  for (const wanted of [1, 300, 2000, 20_000]) {
    const query = unitVector(random, width);
    const queryCode = new Uint8Array(codes.stride);
    for (let d = 0; d < width; d++) if (query[d]! > 0) queryCode[d >> 3]! |= 1 << (d & 7);
    const distances = Array.from({ length: count }, (_, row) => {
      let differing = 0;
      for (let b = 0; b < codes.stride; b++) {
        differing += popcount(stored[row * codes.stride + b]! ^ queryCode[b]!);
      }
      return differing;
    });
    const cut = [...distances].sort((a, b) => a - b)[wanted - 1]!;
    const expected = distances.flatMap((distance, row) => distance <= cut ? [row] : []);
    assert.deepEqual([...codes.nearest(query, count, wanted)], expected, `wanted ${wanted}`);
  }
});
