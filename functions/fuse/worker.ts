import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountFuse } from "./app.ts";

/** The search and fusion function alone, for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountFuse] });
