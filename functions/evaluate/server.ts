import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountEvaluations } from "./app.ts";

/** Batch evaluations (`/v1/evaluations`); the pipeline and judges are steps, as a server of its own. */
export function createEvaluateServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountEvaluations], serves: ["EVALUATE"] });
}
