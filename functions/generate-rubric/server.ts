import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountGenerateRubric } from "./app.ts";

/** REBEL's rubric generation (`/v1/rubrics`), as a server of its own. */
export function createGenerateRubricServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountGenerateRubric], serves: ["GENERATE_RUBRIC"] });
}
