import assert from "node:assert/strict";
import { crc32 } from "./crc32.ts";
import { checkpointFrames, readCheckpoint } from "./checkpoint.ts";
import { NamespaceIndex } from "./namespace.ts";
import { prepareChunk } from "./prepared.ts";
import { CODES_FROM_ROWS } from "./dense-vectors.ts";
import { mulberry32 } from "./random.ts";

const chunk = (id: string, text: string) =>
  prepareChunk({
    id,
    text,
    vector: [1, 0, 2],
    metadata: { doc_id: id.split("#")[0]!, chunk_index: 0 },
  });

function concat(parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) bytes.set(part, (at += part.length) - part.length);
  return bytes;
}

Deno.test("a checkpoint keeps texts as bytes: multibyte text and removed slots come back right", () => {
  const index = NamespaceIndex.build([
    chunk("a#0", "Crème brûlée — 焦糖 🍮"),
    chunk("b#0", "plain ascii"),
    chunk("c#0", ""),
  ]);
  index.remove("b#0");
  index.put(chunk("d#0", "added after the build: ünïcödé"));
  const bytes = concat([...checkpointFrames(new Map([["ns", index.view()]]), 7)]);
  const { generation, namespaces } = readCheckpoint(bytes);
  assert.equal(generation, 7);
  const restored = NamespaceIndex.restore(namespaces.get("ns")!);
  assert.equal(restored.size, 3);
  assert.equal(restored.hit("a#0").text, "Crème brûlée — 焦糖 🍮");
  assert.equal(restored.hit("c#0").text, "");
  assert.equal(restored.hit("d#0").text, "added after the build: ünïcödé");
  // Written again from the restored index (stored bytes copied, not decoded): the same texts.
  const again = readCheckpoint(
    concat([...checkpointFrames(new Map([["ns", restored.view()]]), 8)]),
  );
  const twice = NamespaceIndex.restore(again.namespaces.get("ns")!);
  assert.equal(twice.hit("a#0").text, "Crème brûlée — 焦糖 🍮");
  assert.equal(twice.hit("d#0").text, "added after the build: ünïcödé");
});

Deno.test("a checkpoint written before texts were bytes (texts as JSON) still loads", () => {
  const index = NamespaceIndex.build([chunk("a#0", "old format text")]);
  const frames = [...checkpointFrames(new Map([["ns", index.view()]]), 3)];
  // Rewrite the slots frame the way the older writer did: texts in the JSON, no text bytes.
  const slotsAt = frames.findIndex((frame) => {
    const length = new DataView(frame.buffer, frame.byteOffset).getUint32(8, true);
    return new TextDecoder().decode(frame.subarray(12, 12 + length)).includes('"slots"');
  });
  const old = frames[slotsAt]!;
  const length = new DataView(old.buffer, old.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(old.subarray(12, 12 + length)));
  delete header.textBytes;
  header.texts = ["old format text"];
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = (json.length + 3) & ~3;
  const frame = new Uint8Array(12 + padded);
  const view = new DataView(frame.buffer);
  view.setUint32(0, 4 + padded, true);
  view.setUint32(8, json.length, true);
  frame.set(json, 12);
  view.setUint32(4, crc32(frame.subarray(8)), true);
  frames[slotsAt] = frame;
  const restored = NamespaceIndex.restore(readCheckpoint(concat(frames)).namespaces.get("ns")!);
  assert.equal(restored.hit("a#0").text, "old format text");
});

Deno.test("a checkpoint taken before the bit codes start, written after, still loads whole", () => {
  const width = 128;
  const random = mulberry32(9);
  const dense = (n: number) =>
    prepareChunk({
      id: `d${n}#0`,
      text: `dense ${n}`,
      vector: Array.from({ length: width }, () => random() - 0.5),
      metadata: { doc_id: `d${n}`, chunk_index: 0 },
    });
  const index = NamespaceIndex.build(
    Array.from({ length: CODES_FROM_ROWS - 10 }, (_, n) => dense(n)),
  );
  const frames = checkpointFrames(new Map([["ns", index.view()]]), 1);
  const first = frames.next().value!; // the namespace frame, before any rows
  // Writes go on while the checkpoint is written: these start the bit codes.
  for (let n = CODES_FROM_ROWS - 10; n < CODES_FROM_ROWS + 10; n++) index.put(dense(n));
  const { namespaces } = readCheckpoint(concat([first, ...frames]));
  const restored = NamespaceIndex.restore(namespaces.get("ns")!);
  assert.equal(restored.size, CODES_FROM_ROWS - 10);
  const vector = new Float32Array(index.view().vectors!.rows.vector(5));
  const norm = Math.hypot(...vector);
  const [best] = restored.dense(vector.map((value) => value / norm), 1);
  assert.equal(best!.id, "d5#0");
});
