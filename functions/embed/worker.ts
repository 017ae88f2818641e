import { createServer } from "../../shared/http/server.ts";
import { Runtime } from "../../shared/runtime.ts";
import { mountEmbed } from "./app.ts";

/** The embed function alone, for Workers or Deno Deploy. */
export default createServer({ runtime: new Runtime(), mounts: [mountEmbed] });
