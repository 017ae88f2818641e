/**
 * `deno task eval` on ARAGOG, as a user runs it: offline, a progress bar on
 * stderr, report.json and report.html in --out; a second run skips the
 * ingestion and compares itself with the first.
 */
import assert from "node:assert/strict";
import { aragogAvailable } from "../helpers/aragog.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const hasDataset = aragogAvailable();

/** `deno task eval` once deno.json has the task; before that (locally only) the script it runs. */
async function evalCommand(): Promise<string[]> {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)).tasks ?? {};
  if (tasks.eval) return ["task", "eval"];
  if (Deno.env.get("CI")) throw new Error('deno.json has no "eval" task');
  console.warn('deno.json has no "eval" task yet: running scripts/eval.ts directly');
  return ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "scripts/eval.ts"];
}

async function runEval(out: string, dataDir: string, extra: string[] = []) {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      ...await evalCommand(),
      ...["--dataset", "../shared/datasets/aragog", "--variants", "none,one-turn", "--limit", "5"],
      ...["--out", out],
      ...extra,
    ],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      SIFT_DATA_DIR: dataDir,
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

Deno.test({
  name:
    "deno task eval runs ARAGOG offline with a progress bar, writes both reports, and resumes history",
  ignore: !hasDataset,
  async fn() {
    const directory = await Deno.makeTempDir();
    try {
      const first = await runEval(`${directory}/first`, `${directory}/data`);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, /ingested 15 documents \(\d+ chunks\) into namespace eval-aragog/);
      const bars = first.stderr.split("\n").filter((line) =>
        /^eval \[[#-]+\]\s+\d+% \d+\/\d+/.test(line)
      );
      assert.ok(bars.length >= 5, `progress lines:\n${first.stderr}`);
      assert.match(bars.at(-1)!, /100% (\d+)\/\1 /);
      assert.match(first.stdout, /^variant\s+precision \[95% CI\]/m);
      assert.match(first.stdout, new RegExp(`report\\.html: ${directory}/first/report\\.html`));

      const report = JSON.parse(await Deno.readTextFile(`${directory}/first/report.json`));
      assert.equal(report.dataset.name, "aragog");
      assert.equal(report.dataset.questions, 5);
      assert.deepEqual(report.summary.map((variant: { variant: string }) => variant.variant), [
        "none",
        "one-turn",
      ]);
      assert.equal(report.win_rates.total_games, 5);
      assert.equal(report.errors.length, 0);
      assert.equal(report.config.models.llm, "sift-offline");
      for (const query of report.queries) {
        assert.ok(
          query.variants["none"].run.answer.length > 0 &&
            query.variants["one-turn"].run.answer.length > 0,
        );
      }
      const html = await Deno.readTextFile(`${directory}/first/report.html`);
      assert.ok(
        html.includes('id="chart-quality-speed"') &&
          html.includes('id="chart-precision-similarity"'),
      );

      // Each question twice: still the same questions, so it compares with the first run.
      const second = await runEval(`${directory}/second`, `${directory}/data`, ["--repeat", "2"]);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, /corpus already in namespace eval-aragog/);
      assert.match(second.stderr, /× none,one-turn × 2 runs/);
      const again = JSON.parse(await Deno.readTextFile(`${directory}/second/report.json`));
      assert.equal(again.config.repeat, 2);
      assert.equal(again.dataset.questions, 5);
      assert.equal(again.queries.length, 10);
      assert.equal(again.win_rates.total_games, 10);
      assert.match(again.config.ci, /bootstrap/);
      assert.ok(again.summary.every((variant: { runs: number }) => variant.runs === 10));
      assert.equal(again.comparison.first_run, false);
      assert.equal(again.comparison.previous_run_id, report.run_id);
      const history = JSON.parse(await Deno.readTextFile(`${directory}/eval-history.json`));
      assert.deepEqual(history.map((run: { run_id: string }) => run.run_id), [
        report.run_id,
        again.run_id,
      ]);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});
