import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createFuseServer } from "./server.ts";

/** The fuse function deployed alone (`sift-fuse`): index and cache in the shared Durable Object. */
export default createFuseServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
