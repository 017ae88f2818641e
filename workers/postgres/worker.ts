import { ALL_IN_ONE_SERVES, createSiftApp } from "../../app.ts";
import { importBundledMount } from "../../mount-imports.ts";
import { nightlyHandler } from "../../functions/evaluate/scheduled-entry.ts";
import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { jobsFromBindings } from "../../adapters/workers/queue-jobs.ts";
import { jobQueueHandler } from "../../functions/orchestrator/jobs/queue-entry.ts";
import { postgresFromBindings } from "../../adapters/postgres/from-env.ts";

/** The Durable Object that holds the cache and job records (the index is in Postgres). */
export { SiftState } from "../../adapters/workers/state-object.ts";

const runtime = new Runtime({
  state: stateFromBindings,
  llmFetch: workersAiBindingFetch,
  jobs: (env) => jobsFromBindings(env, stateFromBindings(env)?.records),
  postgres: postgresFromBindings(),
});
// Each function's routes load on first use, from the one bundle wrangler built (as worker.ts).
const app = createSiftApp({ runtime, importMount: importBundledMount });

/**
 * The all-in-one Worker with its index in Postgres (`sift-all-in-one-postgres`):
 * the root `worker.ts` plus the Postgres client, reached through the
 * `HYPERDRIVE` binding. A separate entry, so the Workers without Postgres
 * never bundle postgres.js (which needs `nodejs_compat`).
 */
export default {
  fetch: app.fetch,
  scheduled: nightlyHandler(app, runtime, ALL_IN_ONE_SERVES),
  queue: jobQueueHandler(app, runtime),
};
