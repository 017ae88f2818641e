/**
 * Work spread over Deno Web Workers, answers in input order: a bulk build's
 * analysis (the stemmer) and parsing run beside the thread that builds the
 * index. At most `inFlight` inputs are out at once, so memory stays bounded
 * however long the input is. Each message carries an id: a worker whose
 * handler awaits (an embedding call) may take the next input meanwhile.
 */
export type PoolOptions<I> = {
  /** Workers to start (default: the machine's cores). */
  workers?: number;
  /** Inputs out at once (default: twice the workers). */
  inFlight?: number;
  /** Buffers to hand over instead of copying. */
  transfer?: (input: I) => Transferable[];
};

type Reply<O> = { id: number; output?: O; error?: { name: string; message: string } };

/** A worker's error again on this side: its name kept, so callers can tell a mistake from a bug. */
export class PoolWorkerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * `module` must answer `{id, input}` messages with `{id, output}` (or
 * `{id, error: {name, message}}`); `serveInWorker` does that for a function.
 */
export async function* mapInWorkers<I, O>(
  module: URL,
  inputs: AsyncIterable<I> | Iterable<I>,
  options: PoolOptions<I> = {},
): AsyncGenerator<O> {
  const count = Math.max(1, options.workers ?? navigator.hardwareConcurrency ?? 2);
  const inFlight = Math.max(1, options.inFlight ?? count * 2);
  const waiting = new Map<number, { resolve: (o: O) => void; reject: (e: Error) => void }>();
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(module.href, { type: "module" });
    worker.onmessage = ({ data }: MessageEvent<Reply<O>>) => {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.error) pending?.reject(new PoolWorkerError(data.error.name, data.error.message));
      else pending?.resolve(data.output as O);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(`bulk worker failed: ${event.message}`);
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
    };
    return worker;
  });
  let next = 0;
  const send = (input: I) => {
    const id = next++;
    const answer = new Promise<O>((resolve, reject) => waiting.set(id, { resolve, reject }));
    answer.catch(() => {}); // heard when its turn comes
    workers[id % count]!.postMessage({ id, input }, options.transfer?.(input) ?? []);
    return answer;
  };
  const queue: Promise<O>[] = [];
  try {
    for await (const input of inputs) {
      queue.push(send(input));
      if (queue.length >= inFlight) yield await queue.shift()!;
    }
    while (queue.length) yield await queue.shift()!;
  } finally {
    for (const worker of workers) worker.terminate();
  }
}

/** In a worker module: answers the pool's messages with `work`'s result, handing over `transfer`'s buffers. */
export function serveInWorker<I, O>(
  work: (input: I) => O | Promise<O>,
  transfer: (output: O) => Transferable[] = () => [],
): void {
  const scope = self as unknown as {
    onmessage: (event: MessageEvent<{ id: number; input: I }>) => void;
    postMessage: (message: unknown, transfer?: Transferable[]) => void;
  };
  scope.onmessage = async ({ data }) => {
    try {
      const output = await work(data.input);
      scope.postMessage({ id: data.id, output }, transfer(output));
    } catch (error) {
      const { name, message } = error instanceof Error
        ? error
        : { name: "Error", message: String(error) };
      scope.postMessage({ id: data.id, error: { name, message } });
    }
  };
}
