import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountAnswer } from "./app.ts";

/** The answer function alone, for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountAnswer] });
