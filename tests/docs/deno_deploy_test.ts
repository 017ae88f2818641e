/**
 * The Deno Deploy entry, checked as far as it can be without an account:
 * `deno.json`'s `deploy` section names a dynamic app and an entry that exists;
 * the entry type-checks; and it starts as Deploy starts it (every permission,
 * the `unstable` features deno.json lists, none of the `start` task's flags,
 * `DENO_DEPLOYMENT_ID` set so jobs open the platform's KV instead of a file)
 * and answers `/healthz` on loopback.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ROOT } from "./commands.ts";
import { captureOutput, freePort } from "../e2e/service.ts";

const deployConfigSchema = z.object({
  unstable: z.array(z.string()),
  deploy: z.object({
    runtime: z.object({ mode: z.literal("dynamic"), entrypoint: z.string() }),
    exclude: z.array(z.string()).optional(),
  }),
});

const config = deployConfigSchema.parse(JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)));
const entry = config.deploy.runtime.entrypoint;

Deno.test("deno.json's deploy section names a dynamic app whose entry exists and keeps local state out", async () => {
  assert.ok((await Deno.stat(`${ROOT}/${entry}`)).isFile, entry);
  // Deploy runs `Deno.cron` and Deno KV (jobs and their queue): the unstable features must be on.
  for (const feature of ["cron", "kv"]) assert.ok(config.unstable.includes(feature), feature);
  assert.ok(config.deploy.exclude?.includes(".data/"), "the local index must not be uploaded");
  const page = await Deno.readTextFile(`${ROOT}/docs/deployment.md`);
  assert.match(page, /deno deploy --org <your-org> --app sift --prod/);
});

Deno.test("the Deno Deploy entry type-checks", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
});

Deno.test({
  name: "the Deno Deploy entry starts as Deploy starts it and answers /healthz on loopback",
  sanitizeResources: false,
  fn: async () => {
    const port = freePort();
    const dataDir = await Deno.makeTempDir({ prefix: "sift-deploy-" });
    const child = new Deno.Command(Deno.execPath(), {
      // Deploy grants every permission and reads `unstable` from deno.json; no v8 or task flags.
      args: ["run", "--allow-all", entry],
      cwd: ROOT,
      env: {
        DENO_DEPLOYMENT_ID: "sift-deploy-check",
        PORT: String(port),
        HOST: "127.0.0.1",
        SIFT_DATA_DIR: dataDir,
        NO_COLOR: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const { output } = captureOutput(child);
    let exited = false;
    child.status.then(() => exited = true);
    try {
      const deadline = Date.now() + 60_000;
      let health: { status?: string } | undefined;
      while (!health) {
        assert.ok(!exited, `the entry exited:\n${output()}`);
        assert.ok(Date.now() < deadline, `no /healthz within 60 s:\n${output()}`);
        try {
          const response = await fetch(`http://127.0.0.1:${port}/healthz`);
          if (response.ok) health = await response.json();
          else await response.body?.cancel();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      assert.equal(health.status, "ok");
      // With DENO_DEPLOYMENT_ID set, jobs live in the platform's KV, not in a file of the data dir.
      const files = [];
      for await (const file of Deno.readDir(dataDir)) files.push(file.name);
      assert.ok(!files.includes("jobs.sqlite"), files.join(", "));
    } finally {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
