import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { parseCliArgs } from "../../scripts/eval/cli-args.ts";
import { compareRuns } from "../../functions/evaluate/compare.ts";
import { parseQuestionsJsonl } from "../../functions/evaluate/dataset.ts";
import { fileCheckpointStore } from "../../scripts/eval/file-checkpoints.ts";
import { fileHistory } from "../../scripts/eval/file-history.ts";
import type { RunSummary } from "../../functions/evaluate/run-summary.ts";
import { progressBar } from "../../functions/evaluate/progress.ts";
import type { EvalProgress } from "../../functions/evaluate/types.ts";

Deno.test("parseQuestionsJsonl keeps target_doc null, numbers missing ids, and names a bad line", () => {
  const questions = parseQuestionsJsonl(
    [
      '{"id": "q1", "question": "What is BERT?", "reference_answer": "A model.", "target_doc": "bert"}',
      "",
      '{"question": "What did GLM-130B use?", "target_doc": null}',
    ].join("\n"),
    "questions.jsonl",
  );
  assert.deepEqual(questions, [
    { id: "q1", question: "What is BERT?", reference_answer: "A model.", target_doc: "bert" },
    { id: "q002", question: "What did GLM-130B use?", target_doc: null },
  ]);
  assert.throws(
    () => parseQuestionsJsonl('{"question": ""}', "f.jsonl"),
    /f\.jsonl:1: question: must not be empty/,
  );
  assert.throws(() => parseQuestionsJsonl("{nope", "f.jsonl"), /f\.jsonl:1: not valid JSON/);
  assert.throws(
    () => parseQuestionsJsonl('{"id": "a", "question": "x"}\n{"id": "a", "question": "y"}', "f"),
    /"a" is repeated/,
  );
});

const step = (done: number, total = 20): EvalProgress => ({
  done,
  total,
  phase: "runs",
  reused: 0,
  failed: 0,
});

Deno.test("the progress bar writes a line per tenth in a log and redraws one line on a terminal", () => {
  const log: string[] = [];
  const plain = progressBar({ write: (text) => log.push(text), isTTY: false, now: () => 0 });
  for (let done = 1; done <= 20; done++) plain.update(step(done));
  assert.equal(log.length, 10);
  assert.ok(log.every((line) => line.endsWith("\n") && !line.includes("\r")));
  assert.match(log.at(-1)!, /\[#+\] 100% 20\/20 runs/);

  const screen: string[] = [];
  let clock = 0;
  const tty = progressBar({ write: (text) => screen.push(text), isTTY: true, now: () => clock });
  for (let done = 1; done <= 20; done++) {
    clock += 10; // redraws at most every 50 ms, and always at the end
    tty.update(step(done));
  }
  tty.finish();
  assert.ok(screen.length >= 4 && screen.length <= 6, `${screen.length} draws`);
  assert.ok(screen.slice(0, -1).every((text) => text.startsWith("\r")));
  assert.equal(screen.at(-1), "\n");
});

Deno.test("file checkpoints survive a restart and skip a torn last line", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const store = await fileCheckpointStore(path, new MemoryCache());
  await store.set("eval:checkpoint:run:unit-1", { answer: 42 });
  await store.set("judge:other", "memory only");
  await Deno.writeTextFile(path, '{"key": "eval:checkpoint:run:unit-2", "val', { append: true });
  const reopened = await fileCheckpointStore(path, new MemoryCache());
  assert.deepEqual(await reopened.get("eval:checkpoint:run:unit-1"), { answer: 42 });
  assert.equal(await reopened.get("eval:checkpoint:run:unit-2"), undefined);
  assert.equal(await reopened.get("judge:other"), undefined);
  await reopened.set("eval:checkpoint:run:unit-3", [1, 2]);
  const third = await fileCheckpointStore(path, new MemoryCache());
  assert.deepEqual(await third.get("eval:checkpoint:run:unit-3"), [1, 2]);
  assert.deepEqual(await third.get("eval:checkpoint:run:unit-1"), { answer: 42 });
  await Deno.remove(path);
});

const summary = (id: string, quality: number, precision: number[]): RunSummary => ({
  run_id: id,
  dataset: "d",
  created_at: "2025-01-01T00:00:00Z",
  questions: precision.length,
  question_set: "s",
  variants: {
    v: {
      retrieval_precision: {
        mean: precision[0]!,
        ci_low: precision[1]!,
        ci_high: precision[2]!,
        n: 10,
      },
      answer_similarity: null,
      system_quality: quality,
      speed_chars_per_second: 100,
      hit_at_k: 1,
      target_mrr_at_5: 1,
      mrr_at_5_somewhat: 1,
      elo: 1000,
    },
  },
});

Deno.test("compareRuns flags a drop below the previous interval, not one within it", () => {
  const previous = summary("a", 0.5, [0.8, 0.7, 0.9]);
  const within = compareRuns(summary("b", 0.48, [0.72, 0.6, 0.8]), previous);
  assert.equal(within.first_run ? -1 : within.regressions.length, 0);
  const below = compareRuns(summary("c", 0.3, [0.65, 0.5, 0.8]), previous);
  assert.ok(!below.first_run);
  assert.deepEqual(below.regressions.map((delta) => delta.metric), [
    "retrieval_precision",
    "system_quality",
  ]);
  assert.deepEqual(compareRuns(previous, undefined), { first_run: true });
});

Deno.test("file history round-trips and sets a corrupt file aside", async () => {
  const directory = await Deno.makeTempDir();
  const history = fileHistory(`${directory}/history.json`);
  assert.deepEqual(await history.list(), []);
  await history.save([summary("a", 0.5, [0.8, 0.7, 0.9])]);
  assert.equal((await history.list())[0]!.run_id, "a");
  await Deno.writeTextFile(`${directory}/history.json`, "{broken");
  assert.deepEqual(await history.list(), []);
  assert.ok((await Deno.stat(`${directory}/history.json.corrupt`)).isFile);
  await Deno.remove(directory, { recursive: true });
});

Deno.test("the CLI's arguments resolve relative paths against the caller's folder", () => {
  const options = parseCliArgs(
    ["--dataset", "data/set", "--limit", "5", "--out", "/abs/out"],
    "/home/me",
  );
  assert.deepEqual(options, {
    dataset: "/home/me/data/set",
    variants: "none,one-turn",
    out: "/abs/out",
    limit: 5,
  });
  assert.throws(() => parseCliArgs(["--limit", "5"], "/"), /--dataset is required/);
  assert.throws(() => parseCliArgs(["--dataset", "x", "--limit", "two"], "/"), /whole number/);
  assert.equal(parseCliArgs(["--help"], "/"), "help");
});
