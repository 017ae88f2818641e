import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountJudge } from "./app.ts";
import { mountJudgeStats } from "./stats-app.ts";

/** The evaluators, Elo tournaments and agreement statistics (`/v1/judge/*`), as a server of its own. */
export function createJudgeServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountJudge, mountJudgeStats], serves: ["JUDGE"] });
}
