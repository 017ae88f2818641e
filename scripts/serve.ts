/**
 * One function alone on PORT, as Deno Deploy would run it:
 *
 *   deno task serve fuse
 *   PORT=8792 deno task serve rerank
 *   STEP_URL_FUSE=http://127.0.0.1:8791 ... deno task serve orchestrator
 *
 * Without Upstash, each process keeps its own index and cache in memory and
 * loads the demo corpus, so a distributed query over the demo corpus works
 * with no account; with UPSTASH_* set, they share Upstash.
 */
import { createAnswerServer } from "../functions/answer/server.ts";
import { createEmbedServer } from "../functions/embed/server.ts";
import { createEvaluateServer } from "../functions/evaluate/server.ts";
import { createFuseServer } from "../functions/fuse/server.ts";
import { createGenerateRubricServer } from "../functions/generate-rubric/server.ts";
import { createJudgeServer } from "../functions/judge/server.ts";
import { createOrchestratorServer } from "../functions/orchestrator/server.ts";
import { createRerankServer } from "../functions/rerank/server.ts";
import { readConfig } from "../shared/config.ts";
import { ConfigError } from "../shared/errors.ts";
import { withClientAddress } from "../shared/ratelimit/origin.ts";
import { guardLoopbackHost, guardsLoopbackHost } from "../shared/http/loopback-host.ts";
import { Runtime } from "../shared/runtime.ts";

const FUNCTIONS = {
  embed: createEmbedServer,
  fuse: createFuseServer,
  "generate-rubric": createGenerateRubricServer,
  rerank: createRerankServer,
  answer: createAnswerServer,
  judge: createJudgeServer,
  evaluate: createEvaluateServer,
  orchestrator: createOrchestratorServer,
};

const name = Deno.args[0];
if (!name || !(name in FUNCTIONS) || Deno.args.includes("--help")) {
  console.error(`usage: deno task serve <${Object.keys(FUNCTIONS).join("|")}>`);
  Deno.exit(name && !Deno.args.includes("--help") ? 2 : 0);
}

let port: number;
try {
  port = readConfig(Deno.env.toObject()).port;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`sift ${name} cannot start. ${error.message}`);
  Deno.exit(1);
}
const app = FUNCTIONS[name as keyof typeof FUNCTIONS](new Runtime());
const hostname = Deno.env.get("HOST") ?? "127.0.0.1";
try {
  const serve = (request: Request, info: Deno.ServeHandlerInfo) =>
    app.fetch(withClientAddress(request, info.remoteAddr), Deno.env.toObject());
  // Bound to loopback, only loopback names are answered (no DNS rebinding); see docs/limits-and-safety.md.
  const handle = guardsLoopbackHost(hostname, Deno.env.toObject())
    ? guardLoopbackHost(serve)
    : serve;
  Deno.serve({
    port,
    hostname,
    onListen: ({ hostname, port }) =>
      console.log(`sift ${name} listening on http://${hostname}:${port}`),
  }, handle);
} catch (error) {
  if (!(error instanceof Deno.errors.AddrInUse)) throw error;
  console.error(`sift ${name} cannot start: port ${port} is in use (set PORT to another)`);
  Deno.exit(1);
}
