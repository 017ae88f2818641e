/**
 * A real Postgres for tests, offline: PGlite (Postgres compiled to
 * WebAssembly) with pgvector behind its wire server, started from the npm
 * packages pinned in deno.json. postgres.js and psql reach it over TCP as
 * they reach Neon or RDS.
 *
 * Tests and `deno task bench` use it; on its own it serves until Ctrl-C:
 *
 *   deno run -A scripts/pglite-server.ts        # prints DATABASE_URL=postgres://...
 *
 * @example
 * await using db = await startPgliteServer();
 * const env = { DATABASE_URL: db.url };
 */
const ROOT = new URL("../", import.meta.url).pathname;
const SERVER = "npm:@electric-sql/pglite-socket@0.2.17/pglite-server";
const PGVECTOR = "@electric-sql/pglite-pgvector:vector";
/** A fresh database runs initdb in WebAssembly: slow on a busy machine. */
const START_DEADLINE_MS = 180_000;
/**
 * initdb in WebAssembly takes half a minute on a busy machine; a restart on an
 * initialized directory a few seconds. The first test to need a database
 * makes one and keeps it here; every test then starts on a copy of it.
 */
const TEMPLATE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/sift-pglite-0.5.14-template`;

export type PgliteServer = {
  url: string;
  port: number;
  dir: string;
  output: () => string;
  /** SIGTERM, and waits for the process to end. */
  stop: () => Promise<void>;
  /** `kill -9`. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and database directory. */
  restart: () => Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

export async function startPgliteServer(
  options: { pgvector?: boolean; dir?: string } = {},
): Promise<PgliteServer> {
  const dir = options.dir ?? await copyOfTemplate();
  const port = freePort();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  let child: Deno.ChildProcess | undefined;
  let captured: ReturnType<typeof captureOutput> | undefined;
  let earlier = "";
  const spawn = async () => {
    child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        SERVER,
        `--db=${dir}`,
        `--port=${port}`,
        "--host=127.0.0.1",
        ...(options.pgvector === false ? [] : [`--extensions=${PGVECTOR}`]),
        "--max-connections=64",
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    captured = captureOutput(child);
    const deadline = Date.now() + START_DEADLINE_MS;
    while (!captured.output().includes("listening")) {
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 100)),
      ]);
      if (exited || Date.now() > deadline) {
        throw new Error(`pglite-server did not start:\n${captured.output()}`);
      }
    }
  };
  const end = async (signal: Deno.Signal) => {
    if (!child) return;
    try {
      child.kill(signal);
    } catch { /* already gone */ }
    await child.status;
    await captured?.drained;
    earlier += captured?.output() ?? "";
    child = undefined;
  };
  await spawn();
  const stop = () => end("SIGTERM");
  return {
    url,
    port,
    dir,
    output: () => earlier + (captured?.output() ?? ""),
    stop,
    kill: () => end("SIGKILL"),
    restart: spawn,
    [Symbol.asyncDispose]: async () => {
      await stop();
      if (!options.dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A new directory holding an initialized database (made once per machine, then copied). */
async function copyOfTemplate(): Promise<string> {
  if (!await exists(`${TEMPLATE}/PG_VERSION`)) {
    const fresh = await Deno.makeTempDir({ prefix: "sift-pglite-init-" });
    const server = await startPgliteServer({ dir: fresh, pgvector: false });
    await server.stop();
    // Renamed whole, so a test running in parallel sees either no template or all of it.
    await Deno.rename(fresh, TEMPLATE).catch(() => Deno.remove(fresh, { recursive: true }));
  }
  const dir = await Deno.makeTempDir({ prefix: "sift-pglite-" });
  const { success } = await new Deno.Command("cp", { args: ["-a", `${TEMPLATE}/.`, dir] })
    .output();
  if (!success) throw new Error(`could not copy ${TEMPLATE}`);
  return dir;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** A child's stdout and stderr as they come: `output()` is all of it so far. */
function captureOutput(child: Deno.ChildProcess) {
  let log = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const bytes of stream) log += decoder.decode(bytes);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  return { output: () => log, drained };
}

if (import.meta.main) {
  const server = await startPgliteServer();
  console.log(`DATABASE_URL=${server.url}`);
  Deno.addSignalListener("SIGINT", async () => {
    await server[Symbol.asyncDispose]();
    Deno.exit(0);
  });
}
