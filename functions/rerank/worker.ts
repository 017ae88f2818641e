import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountRerank } from "./app.ts";

/** The rerank function alone (`/v1/rerank`, `/v2/rerank`), for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountRerank] });
