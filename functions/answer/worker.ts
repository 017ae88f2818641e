import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createAnswerServer } from "./server.ts";

/** The answer function deployed alone (`sift-answer`): index and cache in the shared Durable Object. */
export default createAnswerServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
