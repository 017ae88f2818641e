import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountRerank } from "./app.ts";

/** Reranking (`/v1/rerank`, Cohere-compatible `/v2/rerank`), as a server of its own. */
export function createRerankServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountRerank], serves: ["RERANK"] });
}
