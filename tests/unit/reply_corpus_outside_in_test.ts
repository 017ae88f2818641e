import assert from "node:assert/strict";
import { outsideInFamilies, outsideInReplies } from "./reply-corpus/outside-in/all.ts";
import { countsBy, scoreCorpus } from "./reply-corpus/score.ts";

/*
 * Issue #42's bar on the replies written from the outside in (reasoning
 * models, other languages, other notations, revisions in prose, polite
 * refusals), through every reader: none read confidently wrong, and at most
 * 5 % of the readable ones left degraded. The counts are printed per family
 * and per reader (also by `deno run --allow-read scripts/reply-corpus-score.ts`).
 */

const family = new Map(
  Object.entries(outsideInFamilies).flatMap(([name, replies]) =>
    replies.map((reply) => [reply, name] as const)
  ),
);

function printCounts(title: string, group: Parameters<typeof countsBy>[1]): void {
  console.log(`${title}: right / confidently wrong / degraded`);
  for (const [key, count] of countsBy(outsideInReplies, group)) {
    console.log(`  ${key.padEnd(24)} ${count.right} / ${count.wrong} / ${count.degraded}`);
  }
}

Deno.test("outside-in reply corpus: none read confidently wrong, at most 5% of readable replies degraded", () => {
  const score = scoreCorpus(outsideInReplies);
  const readable = outsideInReplies.filter((entry) => entry.expected !== null).length;
  console.log(
    `outside-in: ${score.right}/${score.total} right, ${score.wrong.length} confidently wrong, ${score.degraded.length} of ${readable} readable degraded`,
  );
  printCounts("per family", (entry) => family.get(entry)!);
  printCounts("per reader", (entry) => entry.reader);
  assert.ok(score.total >= 150, "at least 150 replies (issue #42)");
  assert.deepEqual(score.wrong, []);
  assert.ok(score.degraded.length <= readable * 0.05, JSON.stringify(score.degraded, null, 1));
});
