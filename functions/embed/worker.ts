import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createEmbedServer } from "./server.ts";

/** The embed function deployed alone (`sift-embed`): index and cache in the shared Durable Object. */
export default createEmbedServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
