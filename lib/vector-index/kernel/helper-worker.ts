/// <reference lib="deno.worker" />
/**
 * The helper thread (`helper.ts`): its own instance of the kernel over each
 * shared memory it is given, and a loop that waits on the control block's
 * `JOB` word and claims chunks of each job. It waits with `Atomics.waitAsync`
 * so that `adopt` and `forget` messages still reach it between jobs (a
 * memory it holds stays resident until forgotten), and closes itself
 * after `idleMs` without a job (a Worker keeps its process alive).
 */
import {
  ADOPTED,
  ADOPTIONS,
  ALIVE,
  claimChunks,
  HELPED,
  type HelperMessage,
  JOB,
  MAX_MEMORIES,
  MEMORY,
} from "./helper-control.ts";
import { type DotKernel, instantiateDotKernel } from "./kernel.ts";

let module: WebAssembly.Module | undefined;
let control: Int32Array | undefined;
/** The memories' kernels by id, oldest first (a Map keeps insertion order). */
const kernels = new Map<number, DotKernel>();

self.onmessage = (event: MessageEvent<HelperMessage>) => {
  const message = event.data;
  if (message.type === "start") {
    module = message.module;
    control = new Int32Array(message.control);
    Atomics.store(control, ALIVE, 1);
    void serve(control, message.idleMs);
    return;
  }
  if (!module || !control) return;
  if (message.type === "forget") {
    kernels.delete(message.id);
  } else {
    kernels.set(message.id, instantiateDotKernel(module, message.memory));
    // The oldest memory makes room; the other thread reposts it should it be searched again.
    if (kernels.size > MAX_MEMORIES) kernels.delete(kernels.keys().next().value!);
  }
  const ids = [...kernels.keys()];
  for (let i = 0; i < MAX_MEMORIES; i++) Atomics.store(control, ADOPTED + i, ids[i] ?? 0);
  if (message.type === "adopt") Atomics.add(control, ADOPTIONS, 1);
};

async function serve(control: Int32Array, idleMs: number): Promise<void> {
  let seen = Atomics.load(control, JOB);
  for (;;) {
    const waiting = Atomics.waitAsync(control, JOB, seen, idleMs);
    const outcome = waiting.async ? await waiting.value : waiting.value;
    if (outcome === "timed-out" && Atomics.compareExchange(control, ALIVE, 1, 0) === 1) {
      self.close();
      return;
    }
    seen = Atomics.load(control, JOB);
    const kernel = kernels.get(Atomics.load(control, MEMORY));
    if (kernel) Atomics.add(control, HELPED, claimChunks(control, seen, kernel.hamming));
  }
}
