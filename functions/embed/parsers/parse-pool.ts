/**
 * Parse workers for a Deno that may not start processes (no `--allow-run`):
 * a PDF, DOCX or HTML file is read in a Web Worker, so the request loop
 * answers other callers while it runs, and a parse that outlives
 * `FILE_PARSE_TIMEOUT_MS` is stopped by terminating its worker (the only way
 * to stop synchronous code) and refused. A worker shares the server's heap,
 * so this bounds time, not memory: `parse-processes.ts` is the contained
 * path. Deno-only: `index.ts` loads this module dynamically, never on workerd.
 */
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { type ParsedFile, parseKind } from "./parse-kind.ts";
import { parsedFrom, type ParseJob, type ParseReply } from "./parse-reply.ts";

/** Workers parsing at once; more files wait their turn (each thread holds pdf.js's heap). */
const MAX_WORKERS = 2;

/**
 * How long a worker is kept after its parse: the next file (a folder's, a
 * multi-file upload's) skips the ~0.5 s of loading pdf.js again. Short,
 * because a live worker keeps a Deno process from exiting (a CLI run).
 */
const IDLE_MS = 1000;

const idle: { worker: Worker; timer: ReturnType<typeof setTimeout> }[] = [];
const waiting: (() => void)[] = [];
let running = 0;
/** Set when this Deno cannot start workers (a sandbox without them): parse here instead. */
let unavailable = false;
/** Set once a worker has answered: from then on, a worker that breaks was broken by its file. */
let workerAnswered = false;

/**
 * `parseKind` in a worker thread, bounded by `limits.parseTimeoutMs`. A
 * refusal thrown there is thrown here; past the time, the worker is
 * terminated and the file refused (413).
 */
export async function parseInWorker(
  kind: FileKind,
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedFile> {
  if (unavailable) return await parseKind(kind, bytes, name, limits);
  while (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  let worker: Worker;
  try {
    worker = idle.length ? takeIdle() : newWorker();
  } catch {
    running--;
    unavailable = true;
    waiting.shift()?.();
    return await parseKind(kind, bytes, name, limits);
  }
  let reusable = false;
  try {
    let reply: ParseReply;
    try {
      reply = await ask(worker, { kind, bytes, name, limits }, limits.parseTimeoutMs);
    } catch (error) {
      if (!(error instanceof WorkerBroken)) throw error;
      if (workerAnswered) {
        // Workers run here, so this file stopped its worker: the file's fault, not the server's.
        throw new DocumentRefusedError(
          name,
          "unreadable",
          `stopped the parser (${error.message}); it cannot be read`,
          { cause: error },
        );
      }
      // A platform that starts workers but cannot load their module: parse here from now on.
      unavailable = true;
      return await parseKind(kind, bytes, name, limits);
    }
    workerAnswered = true;
    reusable = true;
    return parsedFrom(reply, name);
  } finally {
    running--;
    if (reusable) keepIdle(worker);
    else worker.terminate();
    waiting.shift()?.();
  }
}

function newWorker(): Worker {
  return new Worker(new URL("./parse-worker.ts", import.meta.url), { type: "module" });
}

function takeIdle(): Worker {
  const { worker, timer } = idle.pop()!;
  clearTimeout(timer);
  return worker;
}

function keepIdle(worker: Worker): void {
  const entry = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      worker.terminate();
    }, IDLE_MS),
  };
  idle.push(entry);
}

/** The worker itself failed (not the file): its module did not load, or it crashed. */
class WorkerBroken extends Error {
  override name = "WorkerBroken";
}

/** One job to a worker and its reply, or a refusal when the time runs out first. */
function ask(worker: Worker, job: ParseJob, timeoutMs: number): Promise<ParseReply> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new DocumentRefusedError(
          job.name,
          "too_large",
          `took over ${timeoutMs} ms to read (FILE_PARSE_TIMEOUT_MS); ` +
            "refused as too large or too complex",
        ),
      );
    }, timeoutMs);
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.onerror = (event) => {
      // The worker itself broke (its module failed to load): a fault here, not the file's.
      event.preventDefault();
      clearTimeout(timer);
      reject(new WorkerBroken(event.message));
    };
    worker.onmessageerror = () => {
      clearTimeout(timer);
      reject(new Error("the parse worker's reply could not be read"));
    };
    worker.postMessage(job);
  });
}
