import assert from "node:assert/strict";
import { readEvents } from "./helpers.ts";

function streamOf(chunks: string[]): Response {
  const encoded = chunks.map((chunk) => new TextEncoder().encode(chunk));
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const bytes of encoded) controller.enqueue(bytes);
        controller.close();
      },
    }),
  );
}

Deno.test("readEvents() reassembles events split across chunks", async () => {
  const raw = 'event: a\ndata: {"x":1}\n\nevent: b\ndata: {"text":"é"}\n\n';
  const bytes = new TextEncoder().encode(raw);
  // Split every 3 bytes, so "é" (two bytes) and the blank line are cut in half.
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 3) pieces.push(bytes.slice(i, i + 3));
  const response = new Response(
    new ReadableStream({
      start(controller) {
        for (const piece of pieces) controller.enqueue(piece);
        controller.close();
      },
    }),
  );
  assert.deepEqual(await readEvents(response), [
    { event: "a", data: { x: 1 } },
    { event: "b", data: { text: "é" } },
  ]);
});

Deno.test("readEvents() joins data lines, skips comments and reads a last unterminated event", async () => {
  const events = await readEvents(streamOf([
    ": keep-alive\n\n",
    "data: [1,\ndata: 2]\n\n",
    "event: done\r\ndata: {}",
  ]));
  assert.deepEqual(events, [
    { event: "message", data: [1, 2] },
    { event: "done", data: {} },
  ]);
});
