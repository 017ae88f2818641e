import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountJudge } from "./app.ts";
import { mountJudgeStats } from "./stats-app.ts";

/** The judge function alone (`/v1/judge/*`), for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountJudge, mountJudgeStats] });
