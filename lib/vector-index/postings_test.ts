import assert from "node:assert/strict";
import { countLiveEntries, flattenPostings, termPostings } from "./postings.ts";
import { mulberry32 } from "./random.ts";

Deno.test("flattenPostings with every slot live copies postings whole: the arrays renumbering each entry gives", () => {
  const random = mulberry32(3);
  const slots = 500;
  // Short postings (copied entry by entry) and long ones (copied as blocks), and a gap.
  const postings = Array.from({ length: 60 }, (_, i) => {
    if (i % 17 === 5) return undefined;
    const posting = termPostings();
    const size = i % 3 === 0 ? 200 + Math.floor(random() * 100) : Math.floor(random() * 20);
    for (let slot = 0; posting.length < size && slot < slots; slot += 1 + (i % 3)) {
      posting.push(slot, 1 + Math.floor(random() * 9));
    }
    return posting;
  });
  const identity = Int32Array.from({ length: slots }, (_, slot) => slot);
  const make = (size: number) => new Uint16Array(size);
  const renumbered = flattenPostings(postings, identity, make);
  assert.equal(countLiveEntries(postings, undefined), countLiveEntries(postings, identity));
  assert.deepEqual(flattenPostings(postings, undefined, make), renumbered);
  const [offsets, slotsOnly, valuesOnly] = (["offsets", "slots", "values"] as const).map((part) =>
    flattenPostings(postings, undefined, make, part)
  );
  assert.deepEqual(offsets!.offsets, renumbered.offsets);
  assert.deepEqual(slotsOnly!.slots, renumbered.slots);
  assert.deepEqual(valuesOnly!.values, renumbered.values);
});
