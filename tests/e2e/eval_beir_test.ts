/**
 * `deno task eval --dataset <a BEIR folder>` as a user runs it, offline, on
 * ARAGOG converted to the BEIR layout at test time: it prints nDCG@10 (and
 * the other columns) for every default strategy × retrieval mode, with the
 * cost per query, and the paired comparisons against the first cell.
 */
import assert from "node:assert/strict";
import { aragogAvailable } from "../helpers/aragog.ts";
import { writeAragogBeir } from "../helpers/aragog-beir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "deno task eval on a BEIR folder prints nDCG@10 and cost per strategy and retrieval mode",
  ignore: !aragogAvailable(),
  async fn() {
    const directory = await Deno.makeTempDir();
    try {
      const { queries } = await writeAragogBeir(`${directory}/aragog`);
      assert.equal(queries, 98, "98 questions have a target paper in the corpus");
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          ...["task", "eval", "--dataset", `${directory}/aragog`, "--limit", "2"],
          ...["--out", `${directory}/out`],
        ],
        cwd: ROOT,
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH") ?? "",
          HOME: Deno.env.get("HOME") ?? "",
          SIFT_DATA_DIR: `${directory}/data`,
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      const err = new TextDecoder().decode(stderr);
      assert.equal(code, 0, `${err}\n${out}`);
      assert.match(err, /2 of 98 judged queries × 48 strategy\/mode cells/);
      assert.match(err, /ingested 15 documents \(\d+ chunks\)/);

      const lines = out.split("\n");
      const header = lines.findIndex((line) => line.startsWith("strategy "));
      assert.match(
        lines[header]!,
        /^strategy\s+mode\s+nDCG@10\s+R@10\s+MRR@10\s+util-P\s+util-R\s+util-F1\s+EM\s+F1\s+calls\/q\s+tokens\/q\s+s\/q\s+n\s+degraded$/,
      );
      const rows = lines.slice(header + 1, header + 49).map((line) => line.split(/\s{2,}/));
      const strategies = ["none", "relevance", "one-turn", "two-turn", "item:AR_s", "item:A_s"];
      const modes = ["sparse", "dense", "hybrid", "sparse+fusion", "dense+fusion", "hybrid+fusion"];
      for (const strategy of [...strategies, "item:A_r", "tot"]) {
        for (const mode of modes) {
          const row = rows.find(([s, m]) => s === strategy && m === mode);
          assert.ok(row, `a row for ${strategy} / ${mode}:\n${out}`);
          const [ndcg, recall, mrr, , , , em, f1, calls, tokens, seconds, n] = row.slice(2);
          for (const value of [ndcg, recall, mrr, em, f1]) {
            assert.ok(Number(value) >= 0 && Number(value) <= 1, `${strategy}/${mode}: ${row}`);
          }
          assert.ok(Number(calls) >= 1, `every cell calls the model to answer: ${row}`);
          assert.ok(Number(tokens) > 0 && Number(seconds) >= 0, `${row}`);
          assert.equal(n, "2");
        }
      }
      // Retrieval alone calls the model once (the answer); fusion adds the variations' call.
      const calls = (strategy: string, mode: string) =>
        Number(rows.find(([s, m]) => s === strategy && m === mode)![10]);
      assert.equal(calls("none", "sparse"), 1);
      assert.equal(calls("none", "sparse+fusion"), 2);
      assert.ok(calls("tot", "sparse") > calls("one-turn", "sparse"), "ToT costs more calls");
      assert.match(out, /nDCG@10 against none \/ sparse, paired by query/);

      const report = JSON.parse(await Deno.readTextFile(`${directory}/out/beir-report.json`));
      assert.equal(report.summary.length, 48);
      assert.equal(report.comparisons.length, 47);
      assert.deepEqual(report.failures, []);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});
