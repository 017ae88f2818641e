import {
  idempotencySlotOf,
  type Job,
  type JobBackend,
  type JobHandler,
  type JobMessage,
} from "./types.ts";

/**
 * Jobs in this process's memory, messages on timers: for tests and for a
 * server without a platform queue. Per process, and lost with it: the Deno
 * entry uses Deno KV instead.
 */
export class MemoryJobBackend implements JobBackend {
  readonly name = "memory";
  readonly #jobs = new Map<string, Job>();
  readonly #byKey = new Map<string, string>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #handler: JobHandler | undefined;

  attach(handler: JobHandler): void {
    this.#handler ??= handler;
  }

  get(id: string): Promise<Job | undefined> {
    const job = this.#jobs.get(id);
    return Promise.resolve(job ? structuredClone(job) : undefined);
  }

  create(job: Job): Promise<{ job: Job; created: boolean }> {
    const key = idempotencySlotOf(job);
    const existing = key ? this.#jobs.get(this.#byKey.get(key) ?? "") : undefined;
    if (existing) return Promise.resolve({ job: structuredClone(existing), created: false });
    this.#jobs.set(job.id, structuredClone(job));
    if (key) this.#byKey.set(key, job.id);
    this.#send({ job_id: job.id, step: "run" }, 0);
    return Promise.resolve({ job, created: true });
  }

  save(job: Job, next?: { message: JobMessage; delayMs?: number }): Promise<void> {
    this.#jobs.set(job.id, structuredClone(job));
    if (next) this.#send(next.message, next.delayMs ?? 0);
    return Promise.resolve();
  }

  enqueue(message: JobMessage, options: { delayMs?: number } = {}): Promise<void> {
    this.#send(message, options.delayMs ?? 0);
    return Promise.resolve();
  }

  /** Stops pending timers (tests). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #send(message: JobMessage, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#handler?.(message).catch((error) => console.error("job message failed:", error));
    }, delayMs);
    this.#timers.add(timer);
  }
}
