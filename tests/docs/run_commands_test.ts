/**
 * Runs every command the README and docs/ show, as written, page by page:
 * `npx -y deno@2.9.6` is the Deno running the tests, `PORT` and
 * `OFFLINE_MODEL_PORT` are free ports (the commands read them as a reader's
 * shell would) and every literal loopback port of a page is mapped to a free
 * one, the index lives in a temporary `SIFT_DATA_DIR`, and curl
 * fails on an HTTP error (a `.curlrc` under `CURL_HOME`). A command that
 * starts a server runs in the background until the page is done; a page with
 * no server of its own gets `deno task start`. Commands that cannot run here
 * are listed in `RUN_ELSEWHERE` (commands.ts) with the test that runs them.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { commandsOf, docPages, elsewhere, ROOT, runnable, serverOf } from "./commands.ts";
import { captureOutput, freePort } from "../e2e/service.ts";

const COMMAND_TIMEOUT_MS = 180_000;

type Server = { command: string; child: Deno.ChildProcess; output: () => string };

async function environment(): Promise<Record<string, string>> {
  const curlHome = await Deno.makeTempDir({ prefix: "sift-docs-curl-" });
  await Deno.writeTextFile(
    `${curlHome}/.curlrc`,
    "fail-with-body\nsilent\nshow-error\nmax-time = 120\nnoproxy = 127.0.0.1,localhost\n",
  );
  return {
    PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: Deno.env.get("HOME") ?? "/root", // Deno's cache lives under it
    CURL_HOME: curlHome,
    NO_COLOR: "1",
    PORT: String(freePort()),
    OFFLINE_MODEL_PORT: String(freePort()),
    SIFT_DATA_DIR: await Deno.makeTempDir({ prefix: "sift-docs-data-" }),
  };
}

/** Runs a command to its end; a non-zero exit fails with what it printed. */
async function run(command: string, env: Record<string, string>): Promise<string> {
  const output = await new Deno.Command("sh", {
    args: ["-c", runnable(command)],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `"${command}" exited with ${output.code}:\n${text.slice(-3000)}`);
  return text;
}

/**
 * Starts a server command in a process group of its own and waits until it
 * answers on `port` (the one the command sets, or its port variable's). A
 * command that sets `SIFT_DATA_DIR` itself keeps it.
 */
async function start(command: string, env: Record<string, string>, port: string): Promise<Server> {
  const { ready } = serverOf(command)!;
  // A data directory has one owner (the lock in adapters/deno/data-dir-lock.ts): each server of a
  // page gets its own, as two servers of a reader's would.
  const dataDir = `${env.SIFT_DATA_DIR}/server-${port}`;
  await Deno.mkdir(dataDir, { recursive: true });
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", runnable(command)],
    cwd: ROOT,
    env: { ...env, SIFT_DATA_DIR: dataDir },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { output } = captureOutput(child);
  const server = { command, child, output };
  let exited = false;
  child.status.then(() => exited = true);
  const url = `http://127.0.0.1:${port}${ready}`;
  const deadline = Date.now() + 60_000;
  while (true) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return server;
    } catch { /* not listening yet */ }
    if (exited || Date.now() > deadline) {
      await stop(server);
      throw new Error(`"${command}" did not answer ${url}:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Every literal port of a page (`PORT=8791`, `http://127.0.0.1:8791`) as a
 * free one, the same for the same number throughout the page, so servers a
 * page starts find each other and never race other tests for a fixed port.
 * 8787 and 8788 are the defaults `PORT` and `OFFLINE_MODEL_PORT` stand for.
 */
export function portMapper(defaults: Record<string, string>, free: () => number) {
  const ports = new Map(Object.entries(defaults));
  const portFor = (port: string) => {
    if (!ports.has(port)) ports.set(port, String(free()));
    return ports.get(port)!;
  };
  return (command: string) =>
    command
      .replace(/\b(PORT|OFFLINE_MODEL_PORT)=(\d{2,5})\b/g, (_, name, port) =>
        `${name}=${portFor(port)}`)
      .replace(/\b(127\.0\.0\.1|localhost):(\d{2,5})\b/g, (_, host, port) =>
        `${host}:${portFor(port)}`);
}

/** The port a server command listens on: the one it sets, else its variable's in `env`. */
function portOf(command: string, env: Record<string, string>): string {
  const { portVariable } = serverOf(command)!;
  const own = new RegExp(`(?:^|\\s)${portVariable}=(\\d+)\\s`).exec(command)?.[1];
  return own ?? env[portVariable]!;
}

/** SIGTERM to the server's whole process group (`deno task` runs the server as its child). */
async function stop(server: Server): Promise<void> {
  try {
    Deno.kill(-server.child.pid, "SIGTERM");
  } catch { /* already gone */ }
  await server.child.status;
}

const pages: [string, string[]][] = [];
for (const page of await docPages()) {
  const commands = commandsOf(await Deno.readTextFile(`${ROOT}/${page}`))
    .filter((command) => !elsewhere(command));
  if (commands.length > 0) pages.push([page, commands]);
}

Deno.test("portMapper() gives each literal port one free port throughout a page", () => {
  let next = 40_000;
  const mapPorts = portMapper({ 8787: "39999" }, () => next++);
  assert.equal(mapPorts("PORT=8791 deno task serve fuse"), "PORT=40000 deno task serve fuse");
  assert.equal(
    mapPorts("STEP_URL_FUSE=http://127.0.0.1:8791 deno task start"),
    "STEP_URL_FUSE=http://127.0.0.1:40000 deno task start",
  );
  assert.equal(
    mapPorts("curl http://localhost:8787/healthz"),
    "curl http://localhost:39999/healthz",
  );
  assert.equal(
    mapPorts("curl http://127.0.0.1:${PORT:-8787}/x"),
    "curl http://127.0.0.1:${PORT:-8787}/x",
  );
});

Deno.test("the docs runner runs workers:check, the dry run of the wrangler deploy commands", () => {
  const runs = pages.flatMap(([, commands]) => commands.map(runnable));
  assert.ok(runs.includes("deno task workers:check"), runs.join("\n"));
});

for (const [page, commands] of pages) {
  Deno.test({
    name: `every command of ${page} runs as written`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const env = await environment();
      const mapPorts = portMapper({ 8787: env.PORT!, 8788: env.OFFLINE_MODEL_PORT! }, freePort);
      const servers = new Map<string, Server>();
      try {
        for (const written of commands) {
          const command = mapPorts(written);
          if (serverOf(command)) {
            // A second server on the same port replaces the first (e.g. start again with LLM_BASE_URL).
            const port = portOf(command, env);
            const previous = servers.get(port);
            if (previous) await stop(previous);
            servers.set(port, await start(command, env, port));
            continue;
          }
          if (/\$\{?PORT\b/.test(command) && !servers.has(env.PORT!)) {
            servers.set(env.PORT!, await start("deno task start", env, env.PORT!));
          }
          await run(command, env);
        }
      } finally {
        for (const server of servers.values()) await stop(server);
        await Deno.remove(env.SIFT_DATA_DIR!, { recursive: true }).catch(() => {});
        await Deno.remove(env.CURL_HOME!, { recursive: true }).catch(() => {});
      }
    },
  });
}
