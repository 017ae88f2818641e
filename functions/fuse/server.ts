import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountFuse } from "./app.ts";

/** Search (`/v1/search`) and RAG-Fusion (`/v1/fuse`), as a server of its own. */
export function createFuseServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountFuse], serves: ["FUSE"], demoCorpus: true });
}
