/**
 * ARAGOG (`questions.jsonl` and `corpus.jsonl`) written in the BEIR layout,
 * so `deno task eval --dataset <folder>` runs the ranking grid on it
 * (docs/evaluation-datasets.md):
 * - corpus.jsonl: one document per paper, `_id` the paper's id, its title and text;
 * - queries.jsonl: one query per question, `_id` the question's id, and the
 *   reference answer as `metadata.answer` (as BEIR's HotpotQA carries answers);
 * - qrels/test.tsv: `target_doc` as paper-level relevance, score 1. The 9
 *   questions whose paper is not in the corpus (`target_doc: null`) have no
 *   qrels, so, as in BEIR, they are not evaluated.
 * sift chunks each paper when it ingests it; the evaluation maps chunks back to
 * their paper (`doc_id`), so relevance stays at the level ARAGOG labels.
 *
 *   deno run --allow-read --allow-write scripts/aragog-beir.ts ../shared/datasets/aragog /tmp/aragog-beir
 */
import { type Command, commandArgs, runCommand, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage:
    "deno run --allow-read --allow-write scripts/aragog-beir.ts <aragog folder> <output folder>",
  about: `Writes ARAGOG (the folder holding its questions.jsonl and corpus.jsonl) into the output
folder in the BEIR layout: corpus.jsonl, queries.jsonl and qrels/test.tsv, for deno task eval
--dataset <output folder>. Questions without a target paper get no qrels (BEIR skips them).`,
  flags: {},
} satisfies Command;

/** Writes the BEIR files into `folder`; the number of judged queries. */
export async function writeAragogBeir(
  folder: string,
  aragog: string,
): Promise<{ queries: number }> {
  const lines = async (name: string) =>
    (await Deno.readTextFile(`${aragog}/${name}`)).split("\n").filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, string | null>);
  const papers = await lines("corpus.jsonl");
  const questions = await lines("questions.jsonl");
  await Deno.mkdir(`${folder}/qrels`, { recursive: true });
  await Deno.writeTextFile(
    `${folder}/corpus.jsonl`,
    papers.map((paper) => JSON.stringify({ _id: paper.id, title: paper.title, text: paper.text }))
      .join("\n") + "\n",
  );
  await Deno.writeTextFile(
    `${folder}/queries.jsonl`,
    questions.map((question) =>
      JSON.stringify({
        _id: question.id,
        text: question.question,
        metadata: { answer: question.reference_answer },
      })
    ).join("\n") + "\n",
  );
  const judged = questions.filter((question) => question.target_doc);
  await Deno.writeTextFile(
    `${folder}/qrels/test.tsv`,
    ["query-id\tcorpus-id\tscore", ...judged.map((q) => `${q.id}\t${q.target_doc}\t1`)].join("\n") +
      "\n",
  );
  return { queries: judged.length };
}

if (import.meta.main) {
  const { positionals } = commandArgs(COMMAND);
  const [aragog, folder, extra] = positionals;
  if (!aragog || !folder || extra) usageMistake(COMMAND, "name the ARAGOG folder and the output");
  await runCommand(async () => {
    const { queries } = await writeAragogBeir(folder, aragog);
    console.log(`${folder}: ARAGOG in the BEIR layout, ${queries} judged queries`);
  });
}
