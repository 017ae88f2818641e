import { createSiftApp } from "./app.ts";
import { runScheduledEvaluation } from "./functions/evaluate/evaluate.ts";
import { Runtime } from "./shared/runtime.ts";

type Env = Record<string, string | undefined>;

const runtime = new Runtime();
const app = createSiftApp({ runtime });

/**
 * The all-in-one Worker: every function on one route table, index and cache
 * in memory; the cron trigger in wrangler.toml runs the nightly evaluation.
 */
export default {
  fetch: app.fetch,
  scheduled(
    _controller: unknown,
    env: Env,
    ctx: { waitUntil(work: Promise<unknown>): void },
  ): void {
    ctx.waitUntil(runScheduledEvaluation(runtime.deps(runtime.config(env)), env));
  },
};
