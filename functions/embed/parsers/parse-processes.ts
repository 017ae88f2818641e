/**
 * Parse children for Deno: a PDF, DOCX, HTML or gzip file is read in a
 * process of its own (`parse-child.ts`) with a memory ceiling
 * (`FILE_PARSE_MEMORY_MB`: V8's heap limit, and the process's resident
 * memory, watched by a thread of the child while it parses) and a time limit
 * (`FILE_PARSE_TIMEOUT_MS`). A file that exhausts a parser, crashes it or
 * overruns kills that child only: the file is refused naming the reason, the
 * server goes on, and the memory goes back when the child ends. A caller that
 * goes away (its request's signal) ends its parse too. Deno-only: `index.ts`
 * loads this module dynamically, never on workerd.
 */
import { z } from "zod";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileKind } from "./detect.ts";
import { frameOf, FrameTooLargeError, jsonFrame, jsonOf } from "./parse-frames.ts";
import { DEFAULT_PARSE_MEMORY_MB, type FileLimits } from "./limits.ts";
import { type ParsedFile } from "./parse-kind.ts";
import { parsedFrom, type ParseReply } from "./parse-reply.ts";
import {
  MAX_REPLY_BYTES,
  type ParseChild,
  ParseChildUnavailable,
  startParseChild,
} from "./parse-child-process.ts";

/** Parses at once; more files wait their turn (each child holds a parser's heap). */
const MAX_CHILDREN = 2;

/**
 * How long a child is kept after its parse: the next file of a folder or a
 * multi-file upload skips starting Deno and loading pdf.js again. Short, so
 * the memory a parse left behind goes back soon, and a CLI run can exit.
 */
const IDLE_MS = 1000;

/** A child that holds more than this share of its ceiling after a parse is not kept. */
const KEEP_BELOW_SHARE = 0.5;

/** A child's answer to a job: the reply, and the memory the child held after it. */
const answerSchema = z.object({
  reply: z.union([
    z.object({ parsed: z.object({ kind: z.string(), blocks: z.array(z.unknown()) }).loose() }),
    z.object({
      refusal: z.object({ file: z.string(), reason: z.string(), why: z.string() }),
    }),
    z.object({ failure: z.string() }),
  ]),
  residentMb: z.number(),
});

const idle: { child: ParseChild; memoryMb: number; timer: ReturnType<typeof setTimeout> }[] = [];
const waiting: (() => void)[] = [];
let running = 0;

/**
 * `parseKind` in a child process, within `limits.parseTimeoutMs` and
 * `limits.parseMemoryMb`. Throws `ParseChildUnavailable` when this Deno
 * cannot start one (no `--allow-run`, a sandbox without processes): the
 * caller then parses another way.
 */
export async function parseInChild(
  kind: FileKind,
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
  signal?: AbortSignal,
): Promise<ParsedFile> {
  await takeTurn(signal);
  const memoryMb = limits.parseMemoryMb ?? DEFAULT_PARSE_MEMORY_MB;
  let child: ParseChild | undefined;
  let keep = false;
  try {
    child = takeIdle(memoryMb) ?? await startParseChild(memoryMb);
    const { reply, residentMb } = await ask(child, { kind, name, limits }, bytes, signal);
    keep = !signal?.aborted && residentMb < memoryMb * KEEP_BELOW_SHARE;
    return parsedFrom(reply, name);
  } finally {
    running--;
    if (child) {
      if (keep) keepIdle(child, memoryMb);
      else child.kill();
    }
    waiting.shift()?.();
  }
}

/** Waits for a free slot; a caller that goes away while waiting leaves the queue. */
async function takeTurn(signal: AbortSignal | undefined): Promise<void> {
  while (running >= MAX_CHILDREN) {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(signal!.reason);
      };
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      waiting.push(go);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  signal?.throwIfAborted();
  running++;
}

function takeIdle(memoryMb: number): ParseChild | undefined {
  const at = idle.findIndex((entry) => entry.memoryMb === memoryMb && entry.child.alive);
  if (at === -1) return undefined;
  const [{ child, timer }] = idle.splice(at, 1) as [(typeof idle)[number]];
  clearTimeout(timer);
  return child;
}

function keepIdle(child: ParseChild, memoryMb: number): void {
  const entry = {
    child,
    memoryMb,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      child.kill();
    }, IDLE_MS),
  };
  idle.push(entry);
}

/**
 * One job to a child and its reply. The child's end (out of memory, a crash,
 * killed for its time or its memory) is the file's refusal; the caller's
 * signal kills the child and rethrows the signal's reason.
 */
async function ask(
  child: ParseChild,
  job: { kind: FileKind; name: string; limits: FileLimits },
  bytes: Uint8Array,
  signal: AbortSignal | undefined,
): Promise<{ reply: ParseReply; residentMb: number }> {
  const { name, limits } = job;
  const memoryMb = limits.parseMemoryMb ?? DEFAULT_PARSE_MEMORY_MB;
  const timer = setTimeout(() => child.kill("time"), limits.parseTimeoutMs);
  const onAbort = () => child.kill("caller");
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    await child.send(jsonFrame(job), frameOf(bytes));
    const frame = await child.replies.next();
    if (frame) {
      return answerSchema.parse(jsonOf(frame)) as { reply: ParseReply; residentMb: number };
    }
  } catch (error) {
    if (error instanceof FrameTooLargeError) {
      child.kill("reply");
      throw new DocumentRefusedError(
        name,
        "too_large",
        `holds more text than one document may (${MAX_REPLY_BYTES} bytes once read)`,
      );
    }
    if (child.killedFor === undefined) child.kill("broken");
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  throw await endedRefusal(child, name, limits, memoryMb, signal);
}

/** Why a child ended before it answered, as the file's refusal (or the caller's abort). */
async function endedRefusal(
  child: ParseChild,
  name: string,
  limits: FileLimits,
  memoryMb: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const ended = await child.ended();
  if (child.killedFor === "caller" && signal?.aborted) return signal.reason;
  if (child.killedFor === "time") {
    return new DocumentRefusedError(
      name,
      "too_large",
      `took over ${limits.parseTimeoutMs} ms to read (FILE_PARSE_TIMEOUT_MS); ` +
        "refused as too large or too complex",
    );
  }
  if (child.killedFor === "memory" || ended.outOfMemory) {
    return new DocumentRefusedError(
      name,
      "too_large",
      `needs more than ${memoryMb} MB to read (FILE_PARSE_MEMORY_MB); ` +
        "refused as too large or too complex",
    );
  }
  return new DocumentRefusedError(
    name,
    "unreadable",
    `stopped the parser (${ended.how}); it cannot be read`,
  );
}

export { ParseChildUnavailable };
