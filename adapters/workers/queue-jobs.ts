import { SiftError } from "../../shared/errors.ts";
import {
  idempotencySlotOf,
  type Job,
  type JobBackend,
  type JobMessage,
} from "../../shared/jobs/types.ts";
import type { DurableObjectRecords, StateRecord } from "./state-client.ts";

/** The parts of a Cloudflare Queue producer binding sift uses, typed structurally. */
export interface QueueProducer {
  send(body: unknown, options?: { delaySeconds?: number }): Promise<void>;
}

/** One message of a consumer batch: ack it when handled, retry it to have it again. */
export interface QueueMessage {
  readonly body: unknown;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export interface QueueBatch {
  readonly messages: readonly QueueMessage[];
}

/** Jobs stay a week, like their records on Deno. */
const TTL_SECONDS = 7 * 24 * 3600;
/** Cloudflare Queues delays a message at most 12 hours. */
const MAX_DELAY_SECONDS = 12 * 3600;

const jobKey = (id: string) => `job:${id}`;
const idempotencyKey = (key: string) => `job-key:${key}`;

/**
 * Jobs on Workers: records in the shared Durable Object's SQLite storage
 * (never evicted), messages on Cloudflare Queues (`JOBS_QUEUE`), consumed by
 * the same Worker's `queue` handler. A new job and its idempotency key are one
 * transaction; the message is sent after it, so a message always finds its
 * job. Should the send fail, the 202 is never given and the caller retries
 * with the same key (a job still queued a minute later is then sent again).
 */
export class QueueJobBackend implements JobBackend {
  readonly name = "cloudflare-queues";
  readonly #queue: QueueProducer;
  readonly #records: DurableObjectRecords;

  constructor(queue: QueueProducer, records: DurableObjectRecords) {
    this.#queue = queue;
    this.#records = records;
  }

  async get(id: string): Promise<Job | undefined> {
    return await this.#records.get<Job>(jobKey(id));
  }

  async create(job: Job): Promise<{ job: Job; created: boolean }> {
    const key = idempotencySlotOf(job);
    const records: StateRecord[] = [{ key: jobKey(job.id), value: job, ttlSeconds: TTL_SECONDS }];
    if (key) records.push({ key: idempotencyKey(key), value: job.id, ttlSeconds: TTL_SECONDS });
    const written = await this.#records.put(records, key ? { ifAbsent: idempotencyKey(key) } : {});
    if (!written) {
      const existing = await this.get((await this.#records.get<string>(idempotencyKey(key!)))!);
      if (existing) {
        // Still queued a minute on: its send most likely failed (no 202 was given); send again.
        if (existing.status === "queued" && Date.now() - Date.parse(existing.updated_at) > 60_000) {
          await this.#queue.send({ job_id: existing.id, step: "run" } satisfies JobMessage);
        }
        return { job: existing, created: false };
      }
    }
    await this.#queue.send({ job_id: job.id, step: "run" } satisfies JobMessage);
    return { job, created: true };
  }

  async enqueue(message: JobMessage, options: { delayMs?: number } = {}): Promise<void> {
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.ceil((options.delayMs ?? 0) / 1000));
    await this.#queue.send(message, delaySeconds > 0 ? { delaySeconds } : {});
  }

  async save(job: Job, next?: { message: JobMessage; delayMs?: number }): Promise<void> {
    await this.#records.put([{ key: jobKey(job.id), value: job, ttlSeconds: TTL_SECONDS }]);
    if (!next) return;
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.ceil((next.delayMs ?? 0) / 1000));
    await this.#queue.send(next.message, delaySeconds > 0 ? { delaySeconds } : {});
  }
}

/** A backend that refuses: a Worker without `JOBS_QUEUE` cannot keep a job past its request. */
export class NoQueueJobBackend implements JobBackend {
  readonly name = "none";
  #refuse(): never {
    throw new SiftError(
      "not_configured",
      503,
      "Jobs need a JOBS_QUEUE binding (Cloudflare Queues) on this Worker",
    );
  }
  get(): Promise<Job | undefined> {
    return Promise.resolve(undefined);
  }
  create(): Promise<{ job: Job; created: boolean }> {
    this.#refuse();
  }
  save(): Promise<void> {
    this.#refuse();
  }
  enqueue(): Promise<void> {
    this.#refuse();
  }
}

/**
 * The job backend of a Worker: Queues plus the state object when both are
 * bound, else one that answers 503 (memory would not outlive the request).
 */
export function jobsFromBindings(
  env: Record<string, unknown>,
  records: DurableObjectRecords | undefined,
): JobBackend {
  const queue = env.JOBS_QUEUE as QueueProducer | undefined;
  return queue && typeof queue.send === "function" && records
    ? new QueueJobBackend(queue, records)
    : new NoQueueJobBackend();
}
