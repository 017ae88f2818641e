/**
 * One parse child: a `deno run` of `parse-child.ts` with no permissions and
 * a V8 heap ceiling, its pipes, and what the server needs to judge how it
 * ended. Deno-only, loaded by `parse-processes.ts`.
 */
import { FrameReader, jsonOf } from "./parse-frames.ts";
import { OVER_MEMORY_MARK } from "./parse-child-mark.ts";

/** How long a new child may take to start and load the parsers' module graph. */
const START_TIMEOUT_MS = 60_000;

/** What a child's reply may hold: a parsed document is bounded by `LIMITS.documentChars`. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** The end of a child's stderr kept to tell how it ended. */
const STDERR_TAIL_BYTES = 4096;

/** What the server's environment passes on: only what Deno needs to find its caches. */
const PASSED_ENV = ["HOME", "PATH", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR", "LANG"];

/** Why the server killed a child, when it did. */
export type KilledFor = "time" | "memory" | "caller" | "reply" | "broken" | "idle";

/** This Deno cannot start parse children (no `--allow-run`, no processes, no module graph). */
export class ParseChildUnavailable extends Error {
  override name = "ParseChildUnavailable";
}

export type ParseChild = {
  replies: FrameReader;
  killedFor: KilledFor | undefined;
  /** False once the process has ended (a child kept idle can die: it is then not used). */
  readonly alive: boolean;
  send(...frames: Uint8Array[]): Promise<void>;
  kill(reason?: KilledFor): void;
  ended(): Promise<{ how: string; outOfMemory: boolean }>;
};

/**
 * A child's `deno run` arguments: no permissions, its heap bounded, the
 * project's config, and its memory ceiling for its watchdog.
 */
function childArgs(memoryMb: number): string[] {
  const entry = new URL("./parse-child.ts", import.meta.url);
  const config = new URL("../../../deno.json", import.meta.url);
  return [
    "run",
    "--quiet",
    "--no-prompt",
    `--v8-flags=--max-old-space-size=${memoryMb}`,
    ...(config.protocol === "file:" ? ["--config", decodeURIComponent(config.pathname)] : []),
    entry.href,
    String(memoryMb),
  ];
}

function childEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const name of PASSED_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** The children alive now: a server that exits (SIGTERM, `Deno.exit`) ends them with it. */
const live = new Set<Deno.ChildProcess>();
let killsLiveOnExit = false;

function endLiveChildren(): void {
  for (const process of live) {
    try {
      process.kill("SIGKILL");
    } catch { /* already gone */ }
  }
}

/** Starts a child and waits until it says it has loaded. */
export async function startParseChild(memoryMb: number): Promise<ParseChild> {
  let process: Deno.ChildProcess;
  try {
    process = new Deno.Command(Deno.execPath(), {
      args: childArgs(memoryMb),
      env: childEnv(),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new ParseChildUnavailable(`parse children cannot start here: ${error}`, {
      cause: error,
    });
  }
  live.add(process);
  process.status.finally(() => live.delete(process));
  if (!killsLiveOnExit) {
    killsLiveOnExit = true;
    globalThis.addEventListener("unload", endLiveChildren);
  }
  const child = wrap(process);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await Promise.race([
    child.replies.next().then((frame) => frame && jsonOf(frame)).catch(() => undefined),
    new Promise<undefined>((resolve) =>
      timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS)
    ),
  ]);
  clearTimeout(timer);
  if ((ready as { ready?: unknown } | undefined)?.ready !== true) {
    child.kill("broken");
    const { how } = await child.ended();
    throw new ParseChildUnavailable(`a parse child did not start (${how})`);
  }
  return child;
}

function wrap(process: Deno.ChildProcess): ParseChild {
  const stdin = process.stdin.getWriter();
  let stderrTail = "";
  const status = process.status;
  let exited = false;
  status.then(() => exited = true, () => exited = true);
  const child: ParseChild = {
    replies: new FrameReader(process.stdout, MAX_REPLY_BYTES),
    killedFor: undefined,
    get alive() {
      return !exited;
    },
    async send(...frames) {
      for (const frame of frames) await stdin.write(frame);
    },
    kill(reason = "idle") {
      child.killedFor ??= reason;
      if (exited) return;
      try {
        process.kill("SIGKILL");
      } catch { /* already gone */ }
    },
    async ended() {
      const { code, signal } = await status;
      await stderrRead;
      await stdin.close().catch(() => {});
      await child.replies.cancel();
      return {
        how: signal ? `ended by ${signal}` : `exit code ${code}`,
        outOfMemory: /out of memory|heap limit/i.test(stderrTail),
      };
    },
  };
  const stderrRead = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of process.stderr) {
      stderrTail = (stderrTail + decoder.decode(chunk, { stream: true }))
        .slice(-STDERR_TAIL_BYTES);
      if (stderrTail.includes(OVER_MEMORY_MARK)) child.kill("memory");
    }
  })().catch(() => {});
  return child;
}
