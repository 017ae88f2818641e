/**
 * A parse child's entry (Deno): started by `parse-processes.ts` as its own
 * `deno run` with no permissions and a V8 heap ceiling, it reads jobs from
 * stdin and writes replies to stdout as frames (`parse-frames.ts`), one job
 * at a time. A file that exhausts a parser kills this process, never the
 * server, and the memory it used goes back to the system when it ends.
 *
 * The heap ceiling does not cover what lives outside V8's heap (the
 * ArrayBuffers a decoder fills), so a watchdog thread reads this process's
 * resident memory while a parse runs on the main thread and, past the
 * ceiling, says so on stderr: the server kills the process at once.
 */
import { FrameReader, jsonFrame, jsonOf } from "./parse-frames.ts";
import type { FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { replyTo } from "./parse-reply.ts";
import { OVER_MEMORY_MARK } from "./parse-child-mark.ts";

/** A job's bytes are at most `FILE_MAX_BYTES`, itself at most 100 MiB. */
const MAX_JOB_FRAME_BYTES = 101 * 1024 * 1024;

const ceilingMb = Number(Deno.args[0]);

// stdout carries frames only: whatever a library prints goes to stderr.
console.log =
  console.info =
  console.debug =
  console.warn =
    console.error;

// The watchdog: a thread of its own, so it reads the memory while the main
// thread is deep in a parser's synchronous work. From a data: URL, as this
// process may read no file.
const watchdog = `
const ceiling = ${ceilingMb} * 1024 * 1024;
const timer = setInterval(() => {
  if (Deno.memoryUsage().rss <= ceiling) return;
  Deno.stderr.writeSync(new TextEncoder().encode(${JSON.stringify(`\n${OVER_MEMORY_MARK}\n`)}));
  clearInterval(timer);
}, 20);
`;
if (ceilingMb > 0) {
  new Worker(`data:text/javascript,${encodeURIComponent(watchdog)}`, { type: "module" });
}

const writer = Deno.stdout.writable.getWriter();
const jobs = new FrameReader(Deno.stdin.readable, MAX_JOB_FRAME_BYTES);
// Said once everything a parse needs has loaded, so the server can tell a
// child that cannot start (a runtime problem) from one a file broke.
await writer.write(jsonFrame({ ready: true }));
for (;;) {
  const head = await jobs.next();
  if (!head) break;
  const bytes = await jobs.next();
  if (!bytes) break;
  const { kind, name, limits } = jsonOf(head) as {
    kind: FileKind;
    name: string;
    limits: FileLimits;
  };
  const reply = await replyTo({ kind, name, limits, bytes });
  // The memory this process holds after the parse: the server keeps it for the next file only when low.
  const residentMb = Deno.memoryUsage().rss / (1024 * 1024);
  await writer.write(jsonFrame({ reply, residentMb }));
}
Deno.exit(0);
