/**
 * Prints how the reply readers fare on the tuned corpus (the replies the
 * parsers were written against), on the held-out corpus of issue #32 and on
 * issue #42's replies written from the outside in (both never tuned on):
 * read right, read confidently wrong, left degraded; the outside-in part
 * also per family, per reader and per style.
 *
 *   deno run --allow-read scripts/reply-corpus-score.ts [--by-style]
 */
import { tunedReplies } from "../tests/unit/reply-corpus/all.ts";
import { heldOutReplies } from "../tests/unit/reply-corpus/held-out.ts";
import { outsideInFamilies, outsideInReplies } from "../tests/unit/reply-corpus/outside-in/all.ts";
import {
  type CorpusScore,
  countsBy,
  scoreCorpus,
  type ScoredReply,
} from "../tests/unit/reply-corpus/score.ts";

function report(name: string, score: CorpusScore): void {
  console.log(
    `${name}: ${score.right}/${score.total} read right, ${score.wrong.length} confidently wrong, ${score.degraded.length} readable left degraded`,
  );
  for (const wrong of score.wrong) {
    console.log(
      `  WRONG [${wrong.category}] read ${JSON.stringify(wrong.read)}, a person reads ${
        JSON.stringify(wrong.expected)
      }: ${JSON.stringify(wrong.reply).slice(0, 140)}`,
    );
  }
  for (const degraded of score.degraded) {
    console.log(
      `  degraded [${degraded.category}]: ${JSON.stringify(degraded.reply).slice(0, 140)}`,
    );
  }
}

function table(title: string, entries: readonly ScoredReply[], group: (e: ScoredReply) => string) {
  console.log(`\n${title}: right / confidently wrong / degraded`);
  for (const [key, count] of [...countsBy(entries, group)].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${key.padEnd(40)} ${count.right} / ${count.wrong} / ${count.degraded}`);
  }
}

report("tuned corpus", scoreCorpus(tunedReplies));
report("held-out corpus (issue #32)", scoreCorpus(heldOutReplies));
report("outside-in corpus (issue #42)", scoreCorpus(outsideInReplies));
const family = new Map(
  Object.entries(outsideInFamilies).flatMap(([name, replies]) =>
    replies.map((reply) => [reply, name] as const)
  ),
);
table("outside-in, per family", outsideInReplies, (entry) => family.get(entry)!);
table("outside-in, per reader", outsideInReplies, (entry) => entry.reader);
if (Deno.args.includes("--by-style")) {
  table("outside-in, per style", outsideInReplies, (entry) => entry.category);
}
