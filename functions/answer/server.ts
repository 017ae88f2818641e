import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountAnswer } from "./app.ts";

/** Cited answers (`/v1/answer`), as a server of its own. */
export function createAnswerServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountAnswer], serves: ["ANSWER"] });
}
