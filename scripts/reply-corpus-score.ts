/**
 * Prints how the reply readers fare on the tuned corpus (the replies the
 * parsers were written against) and, separately, on the held-out corpus
 * (never tuned on): read right, read confidently wrong, left degraded.
 *
 *   deno run --allow-read scripts/reply-corpus-score.ts
 */
import { tunedReplies } from "../tests/unit/reply-corpus/all.ts";
import { heldOutReplies } from "../tests/unit/reply-corpus/held-out.ts";
import { type CorpusScore, scoreCorpus } from "../tests/unit/reply-corpus/score.ts";

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

report("tuned corpus", scoreCorpus(tunedReplies));
report("held-out corpus", scoreCorpus(heldOutReplies));
