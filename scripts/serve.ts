/**
 * One function alone on PORT, as Deno Deploy would run it:
 *
 *   deno task serve fuse
 *   PORT=8792 deno task serve rerank
 *   STEP_URL_FUSE=http://127.0.0.1:8791 ... deno task serve orchestrator
 *
 * `index` serves embed and fuse together: the one process that owns the
 * embedded index (in SIFT_DATA_DIR, under its lock), so what `/v1/documents`
 * acknowledges is what `/v1/search` finds (docs/deno-processes.md). `embed`
 * or `fuse` alone own an index too, each in its own data directory; with
 * UPSTASH_* set, they all share Upstash instead.
 */
import { createAnswerServer } from "../functions/answer/server.ts";
import { createEmbedServer } from "../functions/embed/server.ts";
import { createEvaluateServer } from "../functions/evaluate/server.ts";
import { createFuseServer } from "../functions/fuse/server.ts";
import { createGenerateRubricServer } from "../functions/generate-rubric/server.ts";
import { createJudgeServer } from "../functions/judge/server.ts";
import { createOrchestratorServer } from "../functions/orchestrator/server.ts";
import { createRerankServer } from "../functions/rerank/server.ts";
import { mountEmbed } from "../functions/embed/app.ts";
import { mountFuse } from "../functions/fuse/app.ts";
import { createServer } from "../compose/server.ts";
import { indexLogIn, jobsIn } from "../adapters/deno/data-dir.ts";
import { denoHandler } from "../compose/deno-serve.ts";
import { lastingServe } from "../adapters/deno/lasting-serve.ts";
import { handleJobMessage } from "../shared/jobs/consume.ts";
import { lockDataDirOrExit } from "../adapters/deno/data-dir-lock.ts";
import { type Config, readConfig } from "../shared/config.ts";
import { ConfigError } from "../shared/errors.ts";
import { postgresPool } from "../adapters/postgres/from-env.ts";
import { Runtime } from "../compose/runtime.ts";
import { serveArgs } from "../cli/serve-usage.ts";
import { keepServingPastClientErrors } from "../adapters/deno/stray-errors.ts";

/** Ingest and search in one process: the embedded index's owner in the split shape. */
function createIndexServer(runtime: Runtime) {
  return createServer({
    runtime,
    mounts: [mountEmbed, mountFuse],
    serves: ["EMBED", "FUSE"],
    demoCorpus: true,
  });
}

const FUNCTIONS = {
  index: createIndexServer,
  embed: createEmbedServer,
  fuse: createFuseServer,
  "generate-rubric": createGenerateRubricServer,
  rerank: createRerankServer,
  answer: createAnswerServer,
  judge: createJudgeServer,
  evaluate: createEvaluateServer,
  orchestrator: createOrchestratorServer,
};

const name = serveArgs(Object.keys(FUNCTIONS));
// A stray error of the Postgres client is one log line, not the end of every request.
keepServingPastClientErrors();

let config: Config;
try {
  config = readConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`sift ${name} cannot start. ${error.message}`);
  Deno.exit(1);
}
/** The functions that hold the embedded index: it lives in SIFT_DATA_DIR, one owner at a time. */
const OWNS_INDEX = new Set(["index", "embed", "fuse"]);
const dataDir = Deno.env.get("SIFT_DATA_DIR") ?? ".data";
// An index in Postgres (DATABASE_URL) is reached by any number of processes.
const postgres = postgresPool();
let runtime = new Runtime({ postgres });
if (OWNS_INDEX.has(name) && !config.vector && !config.database) {
  // Held until the process ends (the kernel drops it after a crash too).
  await lockDataDirOrExit(dataDir);
  runtime = new Runtime({ log: indexLogIn(dataDir) });
}
// The orchestrator accepts jobs (202): they wait in Deno KV, as under `deno task start`, so a
// restart loses none. KV takes several processes: no lock.
const jobs = name === "orchestrator" ? await jobsIn(dataDir) : undefined;
if (jobs) runtime = new Runtime({ jobs: () => jobs, postgres });
const app = FUNCTIONS[name as keyof typeof FUNCTIONS](runtime);
jobs?.listen((message) => {
  const env = Deno.env.toObject();
  return handleJobMessage(message, {
    backend: jobs,
    config: runtime.config(env),
    fetch: async (request) => await app.fetch(request, env),
  });
});
const hostname = Deno.env.get("HOST") ?? "127.0.0.1";
try {
  // Deno.serve alone (lasting out of file descriptors); a reverse proxy bounds the request
  // head (docs/operations.md).
  const server = lastingServe({
    port: config.port,
    hostname,
    onListen: ({ hostname, port }) =>
      console.log(`sift ${name} listening on http://${hostname}:${port}`),
  }, denoHandler(app, runtime, hostname));
  // An index owner checkpoints on a graceful stop, as `deno task start` does (a crash loses
  // nothing either: the log is replayed).
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, async () => {
      if (stopping) Deno.exit(130); // a second Ctrl-C does not wait
      stopping = true;
      await server.shutdown();
      await runtime.flush().catch((error) =>
        console.error("checkpoint at shutdown failed:", error)
      );
      Deno.exit(0);
    });
  }
} catch (error) {
  if (!(error instanceof Deno.errors.AddrInUse)) throw error;
  console.error(
    `sift ${name} cannot start: port ${config.port} is already in use (set PORT to another)`,
  );
  Deno.exit(1);
}
