/**
 * Starts `wrangler dev` (local, offline) for one or more wrangler configs and
 * stops it with every workerd it spawned. The first config is served on a free
 * loopback port; the others are reachable only through bindings.
 *
 * @example
 * const dev = await startWranglerDev(["owner.toml", "other.toml"], { persistTo: dir });
 * try {
 *   await dev.ready("/healthz");
 *   const response = await dev.fetch("/healthz");
 * } finally {
 *   await dev.stop();
 * }
 */
import { fileURLToPath } from "node:url";

const PROJECT_DIR = fileURLToPath(new URL("../", import.meta.url));
const WRANGLER = "npm:wrangler@4.156.0";
// Alone on a quiet 2-core machine, the full set of Workers takes about 23 s to
// its first answer (14 s of bundling, then workerd compiling them); two test
// runs side by side took more than 90 s. Waiting longer costs nothing when it
// starts sooner.
const STARTUP_DEADLINE_MS = 240_000;
const REQUEST_TIMEOUT_MS = 30_000;
const SHUTDOWN_GRACE_MS = 10_000;

export type WranglerDevOptions = {
  /** Local storage (Durable Objects, KV, ...); start again with the same one to test a restart. */
  persistTo: string;
  /** Plain-text vars, passed as `--var NAME:value`. */
  vars?: Record<string, string>;
  /** Where wrangler runs (its node_modules resolve from here); the project by default. */
  cwd?: string;
  /** Variables for wrangler itself (e.g. `CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_<BINDING>`). */
  env?: Record<string, string>;
  /** "info" by default, which hides the Workers' console.log; "log" shows it. */
  logLevel?: "debug" | "log" | "info" | "warn" | "error";
};

export type WranglerDev = {
  baseUrl: string;
  port: number;
  /** wrangler's pid, which is also its process group's id (workerd runs in the group). */
  pid: number;
  /** Everything wrangler and workerd printed so far (stderr lines marked). */
  output(): string;
  /** How wrangler exited, once it has. */
  exited(): Deno.CommandStatus | undefined;
  /** A request to the first config's Worker that gives up after `timeoutMs`. */
  fetch(path: string, init?: RequestInit, timeoutMs?: number): Promise<Response>;
  /** Resolves once `GET path` answers 2xx; throws if wrangler exits or the deadline passes. */
  ready(path: string, deadlineMs?: number): Promise<void>;
  /** True while any process of wrangler's group is alive. */
  running(): Promise<boolean>;
  /** Ends wrangler and every workerd it started, then removes its scratch files; safe to call twice. */
  stop(): Promise<void>;
};

/** A port nothing listens on right now (released before wrangler takes it). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`, or `undefined` once `ms` have passed; the timer never outlives the call. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function pgrep(...args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command("pgrep", { args, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(stdout).trim();
}

/** Wrangler's environment: the caller's, minus anything that could select an account or env. */
function wranglerEnv(registryDir: string): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) =>
      !name.startsWith("CLOUDFLARE_") && !name.startsWith("CF_") && !name.startsWith("WRANGLER_")
    ),
  );
  return {
    ...env,
    CI: "true",
    NO_COLOR: "1",
    DO_NOT_TRACK: "1",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    // Also skips the npm update check, which the banner runs.
    WRANGLER_HIDE_BANNER: "true",
    WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
    // Otherwise miniflare fetches https://workers.cloudflare.com/cf.json for `request.cf`.
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    // A private dev registry: bindings must never reach a Worker of another
    // wrangler dev running on this machine (a developer's, or a parallel test's).
    WRANGLER_REGISTRY_PATH: registryDir,
    // The worker's env is only what the caller passes, never the caller's shell.
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
  };
}

export async function startWranglerDev(
  configs: string[],
  options: WranglerDevOptions,
): Promise<WranglerDev> {
  if (configs.length === 0) throw new Error("startWranglerDev: no config given");
  const port = freePort();
  const inspectorPort = freePort();
  const scratchDir = await Deno.makeTempDir({ prefix: "sift-wrangler-dev-" });
  // An empty env file replaces .dev.vars and .env: a developer's real LLM or
  // Upstash keys must not turn an offline test into an online one.
  const envFile = `${scratchDir}/empty.env`;
  await Deno.writeTextFile(envFile, "");
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      WRANGLER,
      "dev",
      ...configs.flatMap((config) => ["--config", config]),
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      options.persistTo,
      "--env-file",
      envFile,
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => [
        "--var",
        `${name}:${value}`,
      ]),
      "--show-interactive-dev-session=false",
      "--log-level",
      options.logLevel ?? "info",
    ],
    cwd: options.cwd ?? PROJECT_DIR,
    clearEnv: true,
    env: { ...wranglerEnv(`${scratchDir}/registry`), ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // Its own process group, so one signal reaches wrangler and the workerd it spawns.
    detached: true,
  }).spawn();

  const chunks: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>, label: string) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      chunks.push(label === "stderr" ? text.replace(/^(?=.)/gm, "[stderr] ") : text);
    }
  };
  // workerd inherits these pipes, so they close only when the whole group has exited.
  const collecting = Promise.all([
    collect(child.stdout, "stdout"),
    collect(child.stderr, "stderr"),
  ]);
  let exitStatus: Deno.CommandStatus | undefined;
  const status = child.status.then((result) => exitStatus = result);
  const client = Deno.createHttpClient({});
  const baseUrl = `http://127.0.0.1:${port}`;

  const signalGroup = (signal: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, signal);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // NotFound: the group is gone
    }
  };
  const running = async () => (await pgrep("-g", String(child.pid))) !== "";

  const fetchWithin = async (path: string, init: RequestInit = {}, ms = REQUEST_TIMEOUT_MS) => {
    const url = `${baseUrl}${path}`;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`${url}: no answer in ${ms} ms`)),
      ms,
    );
    try {
      return await fetch(url, { ...init, client, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  };

  const ready = async (path: string, deadlineMs = STARTUP_DEADLINE_MS) => {
    const deadline = Date.now() + deadlineMs;
    let lastError: unknown = "no answer yet";
    for (;;) {
      if (exitStatus) {
        throw new Error(`wrangler dev exited early (code ${exitStatus.code}): ${lastError}`);
      }
      if (Date.now() >= deadline) {
        throw new Error(`wrangler dev did not answer ${path} in ${deadlineMs} ms: ${lastError}`);
      }
      try {
        const response = await fetchWithin(path, {}, Math.max(1, deadline - Date.now()));
        const body = await response.text();
        if (response.ok) return;
        lastError = `HTTP ${response.status}: ${body.slice(0, 200)}`;
      } catch (error) {
        lastError = error;
      }
      await delay(250);
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      signalGroup("SIGTERM");
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      while (await running() && Date.now() < deadline) await delay(100);
      if (await running()) signalGroup("SIGKILL");
      await status;
      if (await within(collecting, SHUTDOWN_GRACE_MS) === undefined) {
        // A process left the group but kept the pipes: stop reading so the test can end.
        chunks.push("\n[wrangler_dev] output pipes still open after shutdown\n");
      }
      client.close();
      await Deno.remove(scratchDir, { recursive: true }).catch(() => {});
    })();

  return {
    baseUrl,
    port,
    pid: child.pid,
    output: () => chunks.join(""),
    exited: () => exitStatus,
    fetch: fetchWithin,
    ready,
    running,
    stop,
  };
}
