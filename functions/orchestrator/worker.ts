import { Runtime } from "../../shared/runtime.ts";
import { stateFromBindings } from "../../shared/workers/state-client.ts";
import { createOrchestratorServer } from "./server.ts";

/** The orchestrator Worker (`sift`): the whole public API, composed over service bindings. */
export default createOrchestratorServer(new Runtime({ state: stateFromBindings }));
