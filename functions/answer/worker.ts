import { Runtime } from "../../shared/runtime.ts";
import { stateFromBindings } from "../../shared/workers/state-client.ts";
import { createAnswerServer } from "./server.ts";

/** The answer function deployed alone (`sift-answer`): index and cache in the shared Durable Object. */
export default createAnswerServer(new Runtime({ state: stateFromBindings }));
