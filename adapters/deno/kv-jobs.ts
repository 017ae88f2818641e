import {
  idempotencySlotOf,
  isJobMessage,
  type Job,
  type JobBackend,
  type JobHandler,
  type JobMessage,
} from "../../shared/jobs/types.ts";

/** Deno KV values stop at 64 KiB: a job (its body and result) is stored in parts this big. */
const PART_BYTES = 60_000;
/** Parts written per atomic operation (each is bounded in size). */
const PARTS_PER_WRITE = 10;
/** Jobs, their parts and idempotency keys stay a week. */
const EXPIRE_MS = 7 * 24 * 3600 * 1000;

/** The head of a stored job: which generation of parts holds it now, and how many. */
type Head = { generation: string; parts: number };

/**
 * Jobs in Deno KV, their messages on Deno KV's queue: a local SQLite file
 * here (under `SIFT_DATA_DIR`), the managed KV on Deno Deploy. A new job's
 * record, its idempotency key and its first message are one atomic commit,
 * so a 202 means the queue has it; a message whose handler dies with the
 * process is handed out again after a restart (KV's lease runs out).
 */
export class KvJobBackend implements JobBackend {
  readonly name = "deno-kv";
  readonly #kv: Deno.Kv;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  /** `path` is a file for a local store; omit it on Deno Deploy. */
  static async open(path?: string): Promise<KvJobBackend> {
    return new KvJobBackend(await Deno.openKv(path));
  }

  /** Runs `handler` for every message; a handler that throws gets the message again later. */
  listen(handler: JobHandler): Promise<void> {
    return this.#kv.listenQueue(async (message: unknown) => {
      if (isJobMessage(message)) await handler(message);
    });
  }

  close(): void {
    this.#kv.close();
  }

  async get(id: string): Promise<Job | undefined> {
    const head = await this.#kv.get<Head>(["jobs", id]);
    return head.value ? await this.#readParts(id, head.value) : undefined;
  }

  async create(job: Job): Promise<{ job: Job; created: boolean }> {
    const key = idempotencySlotOf(job);
    const existing = key ? await this.#jobOfKey(key) : undefined;
    if (existing) return { job: existing, created: false };
    const head = await this.#writeParts(job);
    const operation = this.#kv.atomic()
      .check({ key: ["jobs", job.id], versionstamp: null })
      .set(["jobs", job.id], head, { expireIn: EXPIRE_MS })
      .enqueue({ job_id: job.id, step: "run" } satisfies JobMessage);
    if (key) {
      operation.check({ key: ["job_keys", key], versionstamp: null })
        .set(["job_keys", key], job.id, { expireIn: EXPIRE_MS });
    }
    if ((await operation.commit()).ok) return { job, created: true };
    // Another request with the same key committed first: that job is the one.
    await this.#deleteParts(job.id, head);
    const winner = key ? await this.#jobOfKey(key) : undefined;
    if (!winner) throw new Error(`job ${job.id} could not be stored`);
    return { job: winner, created: false };
  }

  async save(job: Job, next?: { message: JobMessage; delayMs?: number }): Promise<void> {
    const previous = (await this.#kv.get<Head>(["jobs", job.id])).value;
    const head = await this.#writeParts(job);
    const operation = this.#kv.atomic().set(["jobs", job.id], head, { expireIn: EXPIRE_MS });
    if (next) operation.enqueue(next.message, { delay: Math.max(0, next.delayMs ?? 0) });
    if (!(await operation.commit()).ok) throw new Error(`job ${job.id} could not be saved`);
    if (previous) await this.#deleteParts(job.id, previous).catch(() => {});
  }

  async enqueue(message: JobMessage, options: { delayMs?: number } = {}): Promise<void> {
    await this.#kv.enqueue(message, { delay: Math.max(0, options.delayMs ?? 0) });
  }

  async #jobOfKey(key: string): Promise<Job | undefined> {
    const id = (await this.#kv.get<string>(["job_keys", key])).value;
    return id ? await this.get(id) : undefined;
  }

  async #writeParts(job: Job): Promise<Head> {
    const bytes = new TextEncoder().encode(JSON.stringify(job));
    const head: Head = {
      generation: crypto.randomUUID(),
      parts: Math.max(1, Math.ceil(bytes.length / PART_BYTES)),
    };
    for (let from = 0; from < head.parts; from += PARTS_PER_WRITE) {
      const operation = this.#kv.atomic();
      for (let part = from; part < Math.min(head.parts, from + PARTS_PER_WRITE); part++) {
        operation.set(
          ["job_parts", job.id, head.generation, part],
          bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES),
          { expireIn: EXPIRE_MS },
        );
      }
      if (!(await operation.commit()).ok) throw new Error(`job ${job.id} could not be written`);
    }
    return head;
  }

  async #readParts(id: string, head: Head): Promise<Job | undefined> {
    const chunks: Uint8Array[] = [];
    for (let from = 0; from < head.parts; from += PARTS_PER_WRITE) {
      const keys = [];
      for (let part = from; part < Math.min(head.parts, from + PARTS_PER_WRITE); part++) {
        keys.push(["job_parts", id, head.generation, part]);
      }
      for (const entry of await this.#kv.getMany<Uint8Array[]>(keys)) {
        if (!(entry.value instanceof Uint8Array)) return undefined; // expired
        chunks.push(entry.value);
      }
    }
    const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
    return JSON.parse(new TextDecoder().decode(bytes)) as Job;
  }

  async #deleteParts(id: string, head: Head): Promise<void> {
    for (let from = 0; from < head.parts; from += PARTS_PER_WRITE) {
      const operation = this.#kv.atomic();
      for (let part = from; part < Math.min(head.parts, from + PARTS_PER_WRITE); part++) {
        operation.delete(["job_parts", id, head.generation, part]);
      }
      await operation.commit();
    }
  }
}
