/**
 * Issue #42's bar from outside: the replies written from the outside in
 * (reasoning models' thinking, other languages, other notations, revisions
 * in prose, polite refusals; never tuned on) served by a real
 * OpenAI-compatible server on loopback to the judge, rerank and fuse routes
 * with `LLM_STRUCTURED_OUTPUTS=false`. None may be read confidently wrong,
 * and at most 5 % of the readable ones left degraded. A correction turn
 * gets the same reply again, as a stubborn model would. (Replies whose
 * thinking comes in `reasoning_content` are read through the chat layer in
 * `tests/unit/reasoning_replies_test.ts`.)
 */
import assert from "node:assert/strict";
import { serveTextModel } from "../helpers/text_model_server.ts";
import { outcome, readThroughRoute, siftAgainst } from "../helpers/reply_routes.ts";
import { outsideInReplies } from "../unit/reply-corpus/outside-in/all.ts";

Deno.test("outside-in replies through the judge, rerank and fuse routes in text mode: none confidently wrong, at most 5% degraded", async () => {
  let current = "";
  await using model = serveTextModel(() => current);
  const tally = { right: 0, readable: 0, wrong: [] as string[], degraded: [] as string[] };
  let n = 0;
  for (const entry of outsideInReplies) {
    if (entry.reasoning !== undefined) continue;
    current = entry.reply;
    // A service of its own per reply: query variations are cached per question.
    const read = await readThroughRoute(siftAgainst(model.baseURL), entry, ++n);
    if (read === undefined) continue;
    if (entry.expected !== null) tally.readable++;
    const result = outcome(entry, read);
    const line = `[${entry.category}] ${JSON.stringify(read)} for ${JSON.stringify(entry.reply)}`;
    if (result === "right") tally.right++;
    else if (result === "wrong") tally.wrong.push(line);
    else tally.degraded.push(line);
  }
  console.log(
    `outside-in through routes: ${tally.right} right, ${tally.wrong.length} wrong, ${tally.degraded.length} of ${tally.readable} readable degraded`,
  );
  assert.ok(tally.right >= 100, `most replies are route-readable: ${tally.right}`);
  assert.deepEqual(tally.wrong, []);
  assert.ok(tally.degraded.length <= tally.readable * 0.05, tally.degraded.join("\n"));
});
