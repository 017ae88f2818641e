import { ALL_IN_ONE_SERVES, createSiftApp } from "./app.ts";
import { importBundledMount } from "./mount-imports.ts";
import { nightlyHandler } from "./functions/evaluate/scheduled-entry.ts";
import { Runtime } from "./compose/runtime.ts";
import { workersAiBindingFetch } from "./providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "./adapters/workers/state-client.ts";
import { jobsFromBindings } from "./adapters/workers/queue-jobs.ts";
import { jobQueueHandler } from "./functions/orchestrator/jobs/queue-entry.ts";

/** The Durable Object that holds the embedded index and cache. */
export { SiftState } from "./adapters/workers/state-object.ts";

const runtime = new Runtime({
  state: stateFromBindings,
  llmFetch: workersAiBindingFetch,
  jobs: (env) => jobsFromBindings(env, stateFromBindings(env)?.records),
});
// Each function's routes still load on first use, from the one bundle wrangler built.
const app = createSiftApp({ runtime, importMount: importBundledMount });

/**
 * The all-in-one Worker (`sift-all-in-one`): every function on one route
 * table, index, cache and job records in its Durable Object, jobs on
 * Cloudflare Queues; the cron trigger in wrangler.toml runs the nightly evaluation.
 */
export default {
  fetch: app.fetch,
  scheduled: nightlyHandler(app, runtime, ALL_IN_ONE_SERVES),
  queue: jobQueueHandler(app, runtime),
};
