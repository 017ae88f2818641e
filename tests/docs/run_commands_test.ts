/**
 * Runs every command the README and docs/ show, as written, page by page:
 * `npx -y deno@2.9.6` is the Deno running the tests, `PORT` and
 * `OFFLINE_MODEL_PORT` are free ports (the commands read them as a reader's
 * shell would), the index lives in a temporary `SIFT_DATA_DIR`, and curl
 * fails on an HTTP error (a `.curlrc` under `CURL_HOME`). A command that
 * starts a server runs in the background until the page is done; a page with
 * no server of its own gets `deno task start`. Commands that cannot run here
 * are listed in `RUN_ELSEWHERE` (commands.ts) with the test that runs them.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { commandsOf, docPages, elsewhere, ROOT, runnable, serverOf } from "./commands.ts";
import { freePort } from "../e2e/service.ts";

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
 * answers. A port the command sets itself (`PORT=8790 deno task start`) is
 * replaced by the free one in `env`, so two runs never race for it.
 */
async function start(command: string, env: Record<string, string>): Promise<Server> {
  const { portVariable, ready } = serverOf(command)!;
  const ownPort = new RegExp(`^${portVariable}=\\d+ `);
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", runnable(command).replace(ownPort, "")],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    (async () => {
      for await (const bytes of stream) log += decoder.decode(bytes);
    })();
  }
  const server = { command, child, output: () => log };
  let exited = false;
  child.status.then(() => exited = true);
  const url = `http://127.0.0.1:${env[portVariable]}${ready}`;
  const deadline = Date.now() + 60_000;
  while (true) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return server;
    } catch { /* not listening yet */ }
    if (exited || Date.now() > deadline) {
      await stop(server);
      throw new Error(`"${command}" did not answer ${url}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
      const servers = new Map<string, Server>();
      try {
        for (const command of commands) {
          const server = serverOf(command);
          if (server) {
            // A second server on the same port replaces the first (e.g. start again with LLM_BASE_URL).
            const previous = servers.get(server.portVariable);
            if (previous) await stop(previous);
            servers.set(server.portVariable, await start(command, env));
            continue;
          }
          if (/\$\{?PORT\b/.test(command) && !servers.has("PORT")) {
            servers.set("PORT", await start("deno task start", env));
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
