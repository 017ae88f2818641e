import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { jobsFromBindings } from "../../adapters/workers/queue-jobs.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { nightlyHandler } from "./scheduled-entry.ts";
import { createEvaluateServer } from "./server.ts";

const runtime = new Runtime({
  state: stateFromBindings,
  llmFetch: workersAiBindingFetch,
  jobs: (env) => jobsFromBindings(env, stateFromBindings(env)?.records),
});
const app = createEvaluateServer(runtime);

/**
 * The evaluate function deployed alone (`sift-evaluate`): checkpoints and
 * reports in the shared Durable Object, the pipeline and the judges reached
 * through its ORCHESTRATOR and JUDGE bindings, the nightly run on its cron.
 */
export default {
  fetch: app.fetch,
  scheduled: nightlyHandler(app, runtime, ["EVALUATE"]),
};
