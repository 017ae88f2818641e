/**
 * The local server (and Deno Deploy entry): every function on one port.
 *
 *   deno task start
 */
import { ALL_IN_ONE_SERVES, createSiftApp } from "./app.ts";
import { readConfig } from "./shared/config.ts";
import { indexLogIn, jobsIn } from "./adapters/deno/data-dir.ts";
import { lockDataDirOrExit } from "./adapters/deno/data-dir-lock.ts";
import { denoHandler } from "./compose/deno-serve.ts";
import { lastingServe } from "./adapters/deno/lasting-serve.ts";
import { splitIndexMistake } from "./adapters/deno/split-index.ts";
import { ConfigError } from "./shared/errors.ts";
import { Runtime } from "./compose/runtime.ts";
import { postgresPool } from "./adapters/postgres/from-env.ts";
import { preparePostgres } from "./adapters/postgres/startup.ts";
import { startupHint } from "./adapters/deno/startup-hint.ts";
import { demoCorpusNote } from "./shared/demo/loader.ts";
import { keepServingPastClientErrors } from "./adapters/deno/stray-errors.ts";
import { startArgs } from "./cli/serve-usage.ts";

function startupConfig() {
  try {
    return readConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`sift cannot start. ${error.message}`);
      Deno.exit(1);
    }
    throw error;
  }
}

/**
 * A module this file needs only later (the first job, the nightly run). Not a
 * literal `import()`: Deno parses those at start, taken or not (see app.ts).
 */
async function importLater<Module>(path: string): Promise<Module> {
  return await import(new URL(path, import.meta.url).href) as Module;
}

/** What serves each port; a provider that cannot be built (its keys missing) stops the start. */
function startupProviders(runtime: Runtime, config: ReturnType<typeof readConfig>) {
  try {
    return runtime.deps(config).providers;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`sift cannot start. ${error.message}`);
      Deno.exit(1);
    }
    throw error;
  }
}

/** Starts listening; a busy port is one line naming the fix, not a stack trace. */
function listenOrExit<Server>(port: number, listen: () => Server): Server {
  try {
    return listen();
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(
      `sift cannot start: port ${port} is already in use (another sift?). ` +
        "Stop it, or set PORT to a free port.",
    );
    Deno.exit(1);
  }
}

/**
 * Starts the server: config, the data-dir lock, jobs, the nightly cron, then
 * `Deno.serve` until SIGINT or SIGTERM. `args` are the command's (`--help`).
 */
export async function startSift(args: readonly string[] = Deno.args): Promise<void> {
  startArgs(args); // --help answers before anything starts
  // A stray error of the Postgres client is one log line, not the end of every request.
  keepServingPastClientErrors();
  const config = startupConfig();
  const mistake = splitIndexMistake(config);
  if (mistake) {
    console.error(mistake);
    Deno.exit(1);
  }
  const dataDir = Deno.env.get("SIFT_DATA_DIR") ?? ".data";
  // Held until the process ends: a second sift on this directory exits here, naming this one.
  // Only the embedded index needs one writer (Deno KV's jobs file takes several processes),
  // and Deno Deploy has no directory to lock. An index in Postgres or Upstash takes any number.
  const ownsIndex = !config.vector && !config.database && !Deno.env.get("DENO_DEPLOYMENT_ID");
  const ownerLock = ownsIndex ? await lockDataDirOrExit(dataDir) : undefined;
  const jobs = await jobsIn(dataDir);
  const runtime = new Runtime({
    log: indexLogIn(dataDir),
    jobs: () => jobs,
    postgres: postgresPool(),
  });
  const app = createSiftApp({ runtime });
  // Jobs accepted with 202 wait in Deno KV's queue (a file under SIFT_DATA_DIR); messages left
  // by a process that died are handed out again once their lease runs out.
  // Loaded with the first message (as each function's routes load with their first request).
  jobs.listen(async (message) => {
    const env = Deno.env.toObject();
    const { handleJobMessage } = await importLater<typeof import("./shared/jobs/consume.ts")>(
      "./shared/jobs/consume.ts",
    );
    return await handleJobMessage(message, {
      backend: jobs,
      config: runtime.config(env),
      fetch: async (request) => await app.fetch(request, env),
    });
  });
  const providers = startupProviders(runtime, config);
  // The Postgres schema is made or migrated now; a database without pgvector stops the start.
  const indexProblem = await preparePostgres(runtime.deps(config).index);
  if (indexProblem) {
    console.error(indexProblem);
    Deno.exit(1);
  }
  // The nightly evaluation: history and regression flags in the cache store (see README).
  Deno.cron("sift nightly evaluation", "0 3 * * *", async () => {
    const { runNightly } = await importLater<
      typeof import("./functions/evaluate/scheduled-entry.ts")
    >("./functions/evaluate/scheduled-entry.ts");
    await runNightly(app, runtime, ALL_IN_ONE_SERVES, Deno.env.toObject());
  });
  const hostname = Deno.env.get("HOST") ?? "127.0.0.1";
  // Deno.serve alone: keep-alive, pipelining and half-close are Deno's. A slow or huge request
  // head is a reverse proxy's to bound when sift faces the internet (docs/operations.md).
  // Out of file descriptors, it listens again once some are free instead of dying.
  const server = listenOrExit(config.port, () =>
    lastingServe({
      port: config.port,
      hostname,
      onListen: ({ hostname, port }) => {
        console.log(`sift listening on http://${hostname}:${port}`);
        console.log(
          `providers: llm=${providers.llm} embeddings=${providers.embeddings} index=${providers.index} cache=${providers.cache}`,
        );
        if (providers.llm === "offline") {
          console.log(
            "The offline model is a deterministic heuristic, not an LLM: set LLM_API_KEY or LLM_BASE_URL for real answers.",
          );
        }
        const demoNote = demoCorpusNote(runtime.deps(config).index.name, config.demoCorpus);
        if (demoNote) console.log(demoNote);
        const url = `http://${hostname}:${port}`;
        for (const line of startupHint({ url, apiKeys: config.apiKeys })) console.log(line);
      },
    }, denoHandler(app, runtime, hostname)));
  // A graceful stop finishes the requests in flight, then checkpoints the index so the
  // next start loads flat arrays instead of replaying the log. A crash loses nothing either.
  let stopping = false;
  const stop = async () => {
    if (stopping) Deno.exit(130); // a second Ctrl-C does not wait
    stopping = true;
    await server.shutdown();
    await runtime.flush().catch((error) => console.error("checkpoint at shutdown failed:", error));
    ownerLock?.close();
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
}

if (import.meta.main) await startSift();
