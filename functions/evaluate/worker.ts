import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountEvaluations } from "./app.ts";

/** Batch evaluations alone; they call the pipeline and the judges in-process. */
export default createServer({ runtime: new Runtime(), mounts: [mountEvaluations] });
