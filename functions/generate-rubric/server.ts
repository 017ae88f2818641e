import { createServer } from "../../shared/http/server.ts";
import type { Runtime } from "../../shared/runtime.ts";
import { mountGenerateRubric } from "./app.ts";

/** REBEL's rubric generation (`/v1/rubrics`), as a server of its own. */
export function createGenerateRubricServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountGenerateRubric], serves: ["GENERATE_RUBRIC"] });
}
