import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createRerankServer } from "./server.ts";

/** The rerank function deployed alone (`sift-rerank`): index and cache in the shared Durable Object. */
export default createRerankServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
