/**
 * The growth and BM25-alone sections of `deno task bench` (issue #30), run
 * as the docs show them but at small sizes and into a temporary folder:
 * `--only growth,sparse --growth-sizes … --sparse-docs …`. Speed is not
 * asserted (the machine is shared); what does not depend on it is: one
 * ratio per size past the first, and the pruned BM25 returning the
 * exhaustive scoring's top 10 for every query while cutting some short.
 */
import assert from "node:assert/strict";
import type { BenchReport } from "../../scripts/bench.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("deno task bench --only growth,sparse writes growth ratios and a pruned BM25 that ranks as the exhaustive one", async () => {
  const out = await Deno.makeTempDir({ prefix: "sift-bench-growth-" });
  try {
    await Deno.copyFile(`${ROOT}bench.json`, `${out}/bench.json`);
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "scripts/bench.ts",
        "--only",
        "growth,sparse",
        "--growth-sizes",
        "1000,2000",
        "--sparse-docs",
        "20000",
        "--out",
        out,
      ],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(600_000),
    }).output();
    assert.ok(success, new TextDecoder().decode(stderr).slice(-3000));
    const report = JSON.parse(await Deno.readTextFile(`${out}/bench.json`)) as BenchReport;
    assert.deepEqual(report.growth?.sizes.map((size) => Math.round(size.chunks / 1000)), [1, 2]);
    const [ratio] = report.growth!.ratios;
    assert.equal(report.growth!.ratios.length, 1);
    assert.ok(ratio!.hybrid_p50 > 0 && ratio!.restart_first_search > 0);
    const sparse = report.sparse!;
    assert.equal(sparse.docs, 20_000);
    assert.equal(sparse.same_top_10, sparse.queries);
    assert.ok(sparse.pruned_queries > 0, "no query was pruned");
    const markdown = await Deno.readTextFile(`${out}/BENCHMARKS.md`);
    assert.match(markdown, /## Growth in one run/);
    assert.match(markdown, /## BM25 alone/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
