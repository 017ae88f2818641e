import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountOrchestrator } from "./app.ts";

/** The orchestrator alone; it calls the other functions in-process. */
export default createServer({ runtime: new Runtime(), mounts: [mountOrchestrator] });
