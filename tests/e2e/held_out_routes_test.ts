/**
 * Issue #32's bar from outside: the held-out replies (never tuned on)
 * served by a real OpenAI-compatible server on loopback to the judge,
 * rerank and fuse routes with `LLM_STRUCTURED_OUTPUTS=false`. None may be
 * read confidently wrong, and at most 5 readable ones left degraded. A
 * correction turn gets the same reply again, as a stubborn model would.
 */
import assert from "node:assert/strict";
import { serveTextModel } from "../helpers/text_model_server.ts";
import { outcome, readThroughRoute, siftAgainst } from "../helpers/reply_routes.ts";
import { heldOutReplies } from "../unit/reply-corpus/held-out.ts";

Deno.test("held-out replies through the judge, rerank and fuse routes in text mode: none confidently wrong, at most 5 degraded", async () => {
  let current = "";
  await using model = serveTextModel(() => current);
  const post = siftAgainst(model.baseURL);
  const tally = { right: 0, wrong: [] as string[], degraded: [] as string[] };
  let n = 0;
  for (const entry of heldOutReplies) {
    current = entry.reply;
    // Relevance reranks leave unnamed documents unranked (discarded), not degraded: compare named.
    const read = await readThroughRoute(post, entry, ++n);
    if (read === undefined) continue;
    const result = outcome(entry, read);
    const line = `[${entry.category}] ${JSON.stringify(read)} for ${JSON.stringify(entry.reply)}`;
    if (result === "right") tally.right++;
    else if (result === "wrong") tally.wrong.push(line);
    else tally.degraded.push(line);
  }
  console.log(
    `held-out through routes: ${tally.right} right, ${tally.wrong.length} wrong, ${tally.degraded.length} degraded`,
  );
  assert.ok(tally.right >= 35, `most replies are route-readable: ${tally.right}`);
  assert.deepEqual(tally.wrong, []);
  assert.ok(tally.degraded.length <= 5, tally.degraded.join("\n"));
});
