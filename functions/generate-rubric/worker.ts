import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountGenerateRubric } from "./app.ts";

/** The rubric generator alone, for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountGenerateRubric] });
