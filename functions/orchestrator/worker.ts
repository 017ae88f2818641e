import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { jobsFromBindings } from "../../adapters/workers/queue-jobs.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { jobQueueHandler } from "./jobs/queue-entry.ts";
import { createOrchestratorServer } from "./server.ts";

const runtime = new Runtime({
  state: stateFromBindings,
  llmFetch: workersAiBindingFetch,
  jobs: (env) => jobsFromBindings(env, stateFromBindings(env)?.records),
});
const app = createOrchestratorServer(runtime);

/**
 * The orchestrator Worker (`sift`): the whole public API, composed over
 * service bindings, and the consumer of its jobs queue.
 */
export default { fetch: app.fetch, queue: jobQueueHandler(app, runtime) };
