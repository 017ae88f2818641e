import assert from "node:assert/strict";
import { mulberry32 } from "./random.ts";
import { SlotTopK } from "./slot-top-k.ts";

Deno.test("SlotTopK keeps what a full sort keeps, ties to the slot `before` puts first", () => {
  const random = mulberry32(5);
  for (let round = 0; round < 200; round++) {
    const limit = Math.floor(random() * 12);
    const count = Math.floor(random() * 60);
    // Few distinct scores, so ties are common.
    const scores = Array.from({ length: count }, () => Math.floor(random() * 6));
    const descending = (a: number, b: number) => a > b;
    const top = new SlotTopK(limit, round % 2 ? descending : undefined);
    scores.forEach((score, slot) => {
      if (score >= top.floor) top.offer(slot, score);
    });
    const expected = scores.map((score, slot) => ({ slot, score }))
      .sort((a, b) => b.score - a.score || (round % 2 ? b.slot - a.slot : a.slot - b.slot))
      .slice(0, limit);
    const got = top.sorted();
    assert.deepEqual([...got.slots], expected.map((hit) => hit.slot), `round ${round}`);
    assert.deepEqual([...got.scores], expected.map((hit) => hit.score));
    assert.equal(top.size, 0);
  }
});
