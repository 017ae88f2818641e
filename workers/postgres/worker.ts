import { ALL_IN_ONE_SERVES, createSiftApp } from "../../app.ts";
import { nightlyHandler } from "../../functions/evaluate/scheduled-entry.ts";
import { Runtime } from "../../shared/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../shared/workers/state-client.ts";
import { jobsFromBindings } from "../../shared/workers/queue-jobs.ts";
import { jobQueueHandler } from "../../functions/orchestrator/jobs/queue-entry.ts";
import { postgresFromBindings } from "../../shared/vector/postgres/from-env.ts";

/** The Durable Object that holds the cache and job records (the index is in Postgres). */
export { SiftState } from "../../shared/workers/state-object.ts";

const runtime = new Runtime({
  state: stateFromBindings,
  llmFetch: workersAiBindingFetch,
  jobs: (env) => jobsFromBindings(env, stateFromBindings(env)?.records),
  postgres: postgresFromBindings(),
});
const app = createSiftApp({ runtime });

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
