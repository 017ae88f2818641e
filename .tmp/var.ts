import { readDataset } from "../scripts/retrieval-eval.ts";
import { chunkerScores } from "../scripts/chunking-eval.ts";
const ds = await readDataset("/work/wt/shared/datasets/aragog");
for (const size of [360, 380, 400, 420, 440]) {
  const scores = await chunkerScores(ds, { size, overlap: 50 });
  console.log(size, scores.map(s => `${s.chunker[0]}${s.mode[0]} ${s.hit_at_5} ${s.mrr_at_5.toFixed(3)} ${s.answer_words_at_5.toFixed(3)}`).join(" | "));
}
