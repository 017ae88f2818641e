/**
 * The words of the control block (an `Int32Array` over a `SharedArrayBuffer`)
 * through which this thread hands a Hamming pass to the helper thread
 * (`helper.ts`, `helper-worker.ts`). Both threads claim the pass's chunks by
 * compare-and-swap on `NEXT`, which holds the job's number (15 bits) above
 * the next chunk's (16 bits): a claim can only succeed for the job it read.
 */
export const CONTROL_WORDS = 32;
/** The current job's number; the helper waits on it changing. */
export const JOB = 0;
/** `(job & JOB_MASK) << 16 | next chunk`. */
export const NEXT = 1;
/** Chunks finished, by either thread; this thread waits on it reaching `CHUNKS`. */
export const DONE = 2;
/** 1 while the helper takes jobs; it sets 0 (compare-and-swap) before it closes when idle. */
export const ALIVE = 3;
/** How many `adopt` messages the helper has handled. */
export const ADOPTIONS = 4;
/** Chunks the helper has counted, over all jobs (for tests and benches). */
export const HELPED = 13;
// The job's parameters, written before `NEXT` names the job.
export const MEMORY = 5;
export const CODES = 6;
export const STRIDE = 7;
export const ROWS = 8;
export const QUERY = 9;
export const OUT = 10;
export const CHUNK_ROWS = 11;
export const CHUNKS = 12;
/** `ADOPTED .. ADOPTED + MAX_MEMORIES - 1`: the ids of the memories the helper holds (0: none). */
export const ADOPTED = 16;
export const MAX_MEMORIES = 4;
export const JOB_MASK = 0x7fff;

/** What this thread posts to the helper. */
export type HelperMessage =
  | { type: "start"; module: WebAssembly.Module; control: SharedArrayBuffer; idleMs: number }
  | { type: "adopt"; id: number; memory: WebAssembly.Memory }
  | { type: "forget"; id: number };

/**
 * Claims the job's chunks one at a time and counts each one's Hamming
 * distances with `hamming`, until none is left or another job has started;
 * returns how many it counted.
 */
export function claimChunks(
  control: Int32Array,
  job: number,
  hamming: (codes: number, stride: number, count: number, query: number, out: number) => void,
): number {
  let counted = 0;
  for (;;) {
    const next = Atomics.load(control, NEXT);
    const chunk = next & 0xffff;
    if (next >>> 16 !== (job & JOB_MASK) || chunk >= Atomics.load(control, CHUNKS)) return counted;
    if (Atomics.compareExchange(control, NEXT, next, next + 1) !== next) continue;
    // The job cannot finish (nor its parameters change) before this chunk is counted done.
    const stride = Atomics.load(control, STRIDE);
    const chunkRows = Atomics.load(control, CHUNK_ROWS);
    const from = chunk * chunkRows;
    const rows = Math.min(chunkRows, Atomics.load(control, ROWS) - from);
    hamming(
      (Atomics.load(control, CODES) >>> 0) + from * stride,
      stride,
      rows,
      Atomics.load(control, QUERY) >>> 0,
      (Atomics.load(control, OUT) >>> 0) + from * 4,
    );
    counted++;
    Atomics.add(control, DONE, 1);
    Atomics.notify(control, DONE);
  }
}
