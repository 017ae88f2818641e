import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { stateFromBindings } from "../../adapters/workers/state-client.ts";
import { createJudgeServer } from "./server.ts";

/** The judge function deployed alone (`sift-judge`): index and cache in the shared Durable Object. */
export default createJudgeServer(
  new Runtime({ state: stateFromBindings, llmFetch: workersAiBindingFetch }),
);
