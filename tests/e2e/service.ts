/** Starts `main.ts` as a real server process for end-to-end tests. */

const ROOT = new URL("../../", import.meta.url).pathname;

/** What the `deno task`s that serve and ingest allow, as the e2e tests run them. */
export const SERVE_PERMISSIONS = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-run",
] as const;

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export type RunningService = {
  url: string;
  /** The server process's id (e.g. to read its memory in `/proc/<pid>/status`). */
  pid: number;
  output: () => string;
  close: () => Promise<void>;
  /** `kill -9`: no shutdown, no flush; resolves once the process is gone. */
  crash: () => Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

/** Reads a child's stdout and stderr as they come: `output()` is all of it so far. */
export function captureOutput(child: Deno.ChildProcess) {
  let log = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const bytes of stream) log += decoder.decode(bytes);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  return { output: () => log, drained };
}

/**
 * Runs `deno run main.ts` (or another entry, e.g. `["scripts/serve.ts", "fuse"]`)
 * with the given env and waits until `/healthz` answers.
 */
export async function startService(
  env: Record<string, string>,
  entry: string[] = ["main.ts"],
  options: { openFiles?: number } = {},
): Promise<RunningService> {
  // freePort() closes its listener before the child binds, so under `--parallel` another
  // test's server can take the port first: this child then exits (address in use) while the
  // other server answers /healthz. Readiness is this child's own listening line; a lost port
  // is tried again with another.
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnce(env, entry, options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(
  env: Record<string, string>,
  entry: string[],
  options: { openFiles?: number },
): Promise<RunningService> {
  const port = freePort();
  const args = ["run", ...SERVE_PERMISSIONS, ...entry];
  // `openFiles`: the process's descriptor limit (`ulimit -n`), set by a shell that then
  // becomes deno (exec), so `pid` is still the server's.
  const command = options.openFiles
    ? ["bash", ["-c", `ulimit -n ${options.openFiles} && exec "$0" "$@"`, Deno.execPath(), ...args]]
    : [Deno.execPath(), args];
  const child = new Deno.Command(command[0] as string, {
    args: command[1] as string[],
    cwd: ROOT,
    env: { ...env, PORT: String(port), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { output, drained } = captureOutput(child);
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await drained;
  };
  const crash = async () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
    await drained;
  };
  let exited = false;
  child.status.then(() => exited = true);
  const listening = new RegExp(`listening on http://\\S+:${port}\\b`);
  const deadline = Date.now() + 30_000;
  while (true) {
    if (exited) {
      await drained;
      if (/AddrInUse|address already in use|port \d+ is already in use/i.test(output())) {
        throw new PortTakenError(output());
      }
      throw new Error(`sift exited before it served:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      await response.body?.cancel();
      if (response.ok && listening.test(output())) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`sift did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid, output, close, crash, [Symbol.asyncDispose]: close };
}
