import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountOrchestrator } from "./app.ts";
import { mountConsole } from "./console/app.ts";
import { mountChat } from "./chat/app.ts";
import { mountForwarding } from "./forward.ts";
import { mountJobs } from "./jobs/app.ts";
import { mountMcp } from "./mcp/app.ts";
import { mountResponses } from "./responses/app.ts";
import { mountFiles } from "./openai-files/files-app.ts";
import { mountVectorStores } from "./openai-files/vector-stores-app.ts";
import { withForwardedRoutes } from "./openapi.ts";

/**
 * The orchestrator alone: `/v1/query` composed from the other functions,
 * every other public route forwarded to the function that owns it. It bundles
 * no other function, so every step is a binding or a `STEP_URL_*`.
 */
export function createOrchestratorServer(runtime: Runtime) {
  return createServer({
    runtime,
    mounts: [
      mountOrchestrator,
      mountChat,
      mountResponses,
      mountFiles,
      mountVectorStores,
      mountMcp,
      mountJobs,
      mountForwarding,
    ],
    open: [mountConsole],
    serves: [],
    // Its /openapi.json describes the whole API, each forwarded route as its owner does.
    extendOpenApi: withForwardedRoutes,
  });
}
