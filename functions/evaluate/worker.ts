import { Runtime } from "../../shared/runtime.ts";
import { stateFromBindings } from "../../shared/workers/state-client.ts";
import { createEvaluateServer } from "./server.ts";

/** The evaluate function deployed alone (`sift-evaluate`): index and cache in the shared Durable Object. */
export default createEvaluateServer(new Runtime({ state: stateFromBindings }));
