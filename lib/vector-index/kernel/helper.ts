/**
 * A second thread for the one pass a dense search over many rows cannot
 * avoid: the Hamming distances of every bit code to the query's (128 MB at
 * 1M rows, about 6 ms on one core here). The codes sit in a shared
 * WebAssembly memory (`createDotKernel(bytes, { shared: true })`); the
 * helper, a Worker with its own instance of the kernel over the same memory,
 * and this thread claim the pass's chunks of `CHUNK_CODES` codes from a shared
 * counter, so the pass splits between two cores. A hybrid search gives this
 * thread other work first (`meanwhile`: BM25), and the helper scans while it
 * runs. Searches stay synchronous: this thread waits for the helper's last
 * chunk with `Atomics.wait`.
 *
 * Everything degrades to one thread: in runtimes without Workers or shared
 * wasm memories (workerd), below `HELPER_FROM_ROWS`, while the helper starts
 * or takes in a new memory (both asynchronous), and for good should it fail.
 * The helper closes itself after `IDLE_MS` without work (a live Worker keeps
 * a Deno process from exiting); the next large search starts another.
 */
import {
  ADOPTED,
  ADOPTIONS,
  ALIVE,
  CHUNK_ROWS,
  CHUNKS,
  claimChunks,
  CODES,
  CONTROL_WORDS,
  DONE,
  HELPED,
  type HelperMessage,
  JOB,
  JOB_MASK,
  MAX_MEMORIES,
  MEMORY,
  NEXT,
  OUT,
  QUERY,
  ROWS,
  STRIDE,
} from "./helper-control.ts";
import { type DotKernel, sharedDotModule } from "./kernel.ts";

/**
 * Below this many codes (8 MB at 128 bytes, a pass of about 0.4 ms) one
 * thread is as fast: waking the helper costs about 0.1 ms. At 100k chunks
 * the helper took a hybrid search from 5.7 to 4.7 ms in-process.
 */
export const HELPER_FROM_ROWS = 65_536;
/** 1 MB of 128-byte codes: about 0.07 ms of counting, so neither thread waits long for the other's last. */
const CHUNK_CODES = 8192;
const IDLE_MS = 5000;
/** A chunk takes well under a millisecond; a helper this late is taken for dead and retired. */
const STALL_MS = 2000;

type Helper = {
  worker: Worker;
  control: Int32Array;
  /** Memories posted to this helper (by id), and how many adopt messages were posted. */
  posted: Set<number>;
  adoptions: number;
  /** Whether it has been seen taking jobs (so that `ALIVE` 0 means it has closed). */
  started: boolean;
};

let helper: Helper | undefined;
/** Set when the runtime cannot run a helper, or one failed: one thread from then on. */
let disabled = false;
let job = 0;
let lastMemoryId = 0;
const memoryIds = new WeakMap<object, number>();
/** Once a memory is collected here (its namespace dropped), the helper lets go of its own handle. */
const forgetting = new FinalizationRegistry<number>((id) => {
  helper?.worker.postMessage({ type: "forget", id } satisfies HelperMessage);
});

/**
 * `kernel.hamming(codes, stride, count, query, out)`, with the helper taking
 * chunks of it when it can; `meanwhile` runs on this thread first, while the
 * helper starts on the pass (or before the pass, when there is no helper).
 */
export function hammingPass(
  kernel: DotKernel,
  codes: number,
  stride: number,
  count: number,
  query: number,
  out: number,
  meanwhile?: () => void,
): void {
  const ready = count >= HELPER_FROM_ROWS ? readyHelper(kernel) : undefined;
  if (!ready) {
    meanwhile?.();
    kernel.hamming(codes, stride, count, query, out);
    return;
  }
  const { control, memoryId } = ready;
  const chunks = Math.ceil(count / CHUNK_CODES);
  job = (job + 1) & JOB_MASK;
  Atomics.store(control, DONE, 0);
  Atomics.store(control, MEMORY, memoryId);
  Atomics.store(control, CODES, codes);
  Atomics.store(control, STRIDE, stride);
  Atomics.store(control, ROWS, count);
  Atomics.store(control, QUERY, query);
  Atomics.store(control, OUT, out);
  Atomics.store(control, CHUNK_ROWS, CHUNK_CODES);
  Atomics.store(control, CHUNKS, chunks);
  Atomics.store(control, NEXT, job << 16);
  Atomics.store(control, JOB, job);
  Atomics.notify(control, JOB);
  try {
    meanwhile?.();
  } finally {
    // Even when `meanwhile` throws, the pass completes: the helper may be writing `out`.
    claimChunks(control, job, kernel.hamming);
    awaitChunks(control, chunks, () => kernel.hamming(codes, stride, count, query, out));
  }
}

/** Waits until every chunk is done; a stalled helper is retired and `redo` run here. */
function awaitChunks(control: Int32Array, chunks: number, redo: () => void): void {
  const deadline = performance.now() + STALL_MS;
  for (;;) {
    const done = Atomics.load(control, DONE);
    if (done >= chunks) return;
    const left = deadline - performance.now();
    if (left <= 0) break;
    Atomics.wait(control, DONE, done, left);
  }
  stopHelper();
  disabled = true;
  redo();
}

/** The helper's control block and the memory's id, when the helper can scan `kernel`'s memory now. */
function readyHelper(kernel: DotKernel): { control: Int32Array; memoryId: number } | undefined {
  const memory = kernel.memory;
  if (disabled || !(memory.buffer instanceof SharedArrayBuffer)) return undefined;
  if (helper && Atomics.load(helper.control, ALIVE) !== 1) {
    // Still starting; or, once it has taken jobs, closed when idle: a new one starts.
    if (!helper.started) return undefined;
    helper = undefined;
  }
  if (!helper) {
    startSoon();
    return undefined;
  }
  if (Atomics.load(helper.control, ALIVE) !== 1) return undefined;
  helper.started = true;
  const { control } = helper;
  let memoryId = memoryIds.get(memory);
  if (memoryId === undefined) {
    memoryIds.set(memory, memoryId = ++lastMemoryId);
    forgetting.register(memory, memoryId);
  }
  for (let i = 0; i < MAX_MEMORIES; i++) {
    if (Atomics.load(control, ADOPTED + i) === memoryId) return { control, memoryId };
  }
  // Not held: never posted, or let go for newer ones since (every post handled): post it.
  if (!helper.posted.has(memoryId) || Atomics.load(control, ADOPTIONS) === helper.adoptions) {
    helper.posted.add(memoryId);
    helper.adoptions++;
    helper.worker.postMessage(
      { type: "adopt", id: memoryId, memory: memory as WebAssembly.Memory } satisfies HelperMessage,
    );
  }
  return undefined;
}

let startPending = false;

/**
 * Starts the helper on a later turn of the event loop, not inside the search
 * that asked: making a Worker holds this thread for some 50 ms, which the
 * first search after a start would otherwise wait behind.
 */
function startSoon(): void {
  if (startPending) return;
  startPending = true;
  setTimeout(() => {
    startPending = false;
    if (!helper && !disabled) helper = startHelper();
  }, 0);
}

function startHelper(): Helper | undefined {
  const module = sharedDotModule();
  if (!module || typeof Worker !== "function") {
    disabled = true;
    return undefined;
  }
  try {
    const worker = new Worker(new URL("./helper-worker.ts", import.meta.url), { type: "module" });
    const control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
    const started: Helper = { worker, control, posted: new Set(), adoptions: 0, started: false };
    worker.onerror = (event) => {
      event.preventDefault();
      if (helper === started) stopHelper();
      disabled = true;
    };
    worker.postMessage(
      {
        type: "start",
        module,
        control: control.buffer as SharedArrayBuffer,
        idleMs: IDLE_MS,
      } satisfies HelperMessage,
    );
    return started;
  } catch {
    disabled = true;
    return undefined;
  }
}

/**
 * Ends the helper thread now (tests, and a process that wants to exit before
 * the helper's idle timeout); the next large search starts another.
 */
export function stopHelper(): void {
  const stopping = helper;
  helper = undefined;
  if (!stopping) return;
  Atomics.store(stopping.control, ALIVE, 0);
  stopping.worker.terminate();
}

/**
 * Whether searches can use a helper thread here, whether one runs now, and
 * how many chunks of passes the running one has counted (tests, benches).
 */
export function helperState(): { disabled: boolean; running: boolean; chunksHelped: number } {
  const running = helper !== undefined && Atomics.load(helper.control, ALIVE) === 1;
  return { disabled, running, chunksHelped: running ? Atomics.load(helper!.control, HELPED) : 0 };
}
