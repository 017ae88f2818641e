import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createGenerateRubricServer } from "./server.ts";

/** The generate-rubric function deployed alone (`sift-generate-rubric`): index and cache in the shared Durable Object. */
export default createGenerateRubricServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
