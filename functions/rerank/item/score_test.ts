import assert from "node:assert/strict";
import { itemScores } from "./score.ts";

Deno.test("itemScores() puts every utility document above every other, strictly decreasing", () => {
  for (const [total, utility] of [[10, 3], [5, 5], [6, 0], [1, 1], [1, 0], [12, 1]] as const) {
    const scores = itemScores(total, utility);
    assert.equal(scores.length, total);
    scores.forEach((score, position) => {
      assert.ok(score > 0 && score <= 1, `${score} in (0, 1]`);
      assert.ok(position < utility ? score > 0.5 : score < 0.5, `${total}/${utility}@${position}`);
      if (position > 0) assert.ok(score < scores[position - 1]!, "strictly decreasing");
    });
  }
});

Deno.test("itemScores() follows the documented formula", () => {
  assert.deepEqual(itemScores(4, 2), [1, 0.75, 1 / 3, 1 / 6]);
  assert.deepEqual(itemScores(2, 0), [1 / 3, 1 / 6]);
});
