/**
 * The Worker sizes bench.json (and so the docs) quote are what
 * `deno task workers:check` measures today: a dry run of the two largest
 * Workers, compared with the recorded rows. A dependency that grows a bundle
 * fails here until `deno task bench --only workers` records it (issue #33:
 * the docs said 676 KiB for a Worker that had grown to 1,370).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ROOT } from "./commands.ts";

const rowSchema = z.object({ name: z.string(), gzip_kib: z.number().nullable() });
/** Compression and small edits move a size a little; a new dependency moves it by more. */
const TOLERANCE = 0.05;

Deno.test({
  name: "workers:check's sizes today are bench.json's, within 5%",
  sanitizeResources: false,
  async fn() {
    const recorded = z.object({ workers: z.array(rowSchema) })
      .parse(JSON.parse(await Deno.readTextFile(`${ROOT}/bench.json`))).workers;
    const names = ["sift-all-in-one", "sift-embed"];
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "workers:check",
        "--json",
        "--only",
        names.join(","),
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const measured = z.array(rowSchema).parse(JSON.parse(new TextDecoder().decode(output.stdout)));
    assert.deepEqual(measured.map((row) => row.name).sort(), names);
    for (const row of measured) {
      const then = recorded.find((worker) => worker.name === row.name)?.gzip_kib;
      assert.ok(then && row.gzip_kib, `${row.name}: no size (${stderr})`);
      assert.ok(
        Math.abs(row.gzip_kib - then) / then <= TOLERANCE,
        `${row.name} is ${row.gzip_kib} KiB today, bench.json says ${then}: ` +
          "run deno task bench --only workers, then update docs/deployment.md",
      );
    }
  },
});
