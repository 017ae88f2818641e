/**
 * A job: one POST route run on the platform's queue, its result delivered to
 * a callback URL as a signed webhook. The record is the job's whole state;
 * queue messages only name it.
 */
export type JobStatus = "queued" | "running" | "succeeded" | "failed";

export type Job = {
  id: string;
  status: JobStatus;
  route: string;
  body: unknown;
  callback_url: string;
  idempotency_key?: string;
  /** The tenant of the key that created it (docs/tenants.md): only that tenant sees it. */
  tenant?: string;
  created_at: string;
  updated_at: string;
  /** When the route's run ended: the webhook payload's timestamp, the same on every attempt. */
  finished_at?: string;
  /** The route's response: its JSON, or for an event stream `{events: [{event, data}]}`. */
  result?: unknown;
  error?: { type: string; message: string; status?: number };
  delivery: {
    attempts: number;
    delivered_at?: string;
    last_status?: number;
    last_error?: string;
    next_attempt_at?: string;
  };
};

/**
 * What travels on the queue: which job, and what to do with it next. An
 * `evaluate` message carries an evaluation's next slice of questions
 * (`job_id` is the evaluation's id, `from` its first question).
 */
export type JobMessage =
  | { job_id: string; step: "run" | "deliver" }
  | { job_id: string; step: "evaluate"; from: number; tenant?: string };

/**
 * Where a job's idempotency key is looked up: per tenant. An idempotency key
 * holds no space (printable ASCII), a tenant name neither, so two tenants'
 * keys never meet, nor a tenant's and a bare key's.
 */
export function idempotencySlotOf(job: Job): string | undefined {
  const key = job.idempotency_key;
  return key && job.tenant ? `${job.tenant} ${key}` : key;
}

export function isJobMessage(value: unknown): value is JobMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  if (typeof message.job_id !== "string" || message.job_id.length > 200) return false;
  if (message.step === "run" || message.step === "deliver") return true;
  return message.step === "evaluate" && Number.isInteger(message.from) &&
    (message.from as number) >= 0 &&
    (message.tenant === undefined || typeof message.tenant === "string");
}

export type JobHandler = (message: JobMessage) => Promise<void>;

/**
 * Where jobs live and how their messages travel: Deno KV and its queue on
 * Deno, a Durable Object and Cloudflare Queues on Workers, memory in a test.
 */
export interface JobBackend {
  readonly name: string;
  get(id: string): Promise<Job | undefined>;
  /**
   * Stores a new job and queues its first message, or, when
   * `job.idempotency_key` already names a job, returns that one untouched.
   */
  create(job: Job): Promise<{ job: Job; created: boolean }>;
  /** Stores the job and then (atomically where the platform allows) queues `next`. */
  save(job: Job, next?: { message: JobMessage; delayMs?: number }): Promise<void>;
  /** Queues a message that belongs to no stored job (an evaluation's next slice). */
  enqueue(message: JobMessage, options?: { delayMs?: number }): Promise<void>;
  /**
   * In-process backends run messages themselves and need the consumer; a
   * platform queue calls the entry's consumer instead and ignores this.
   */
  attach?(handler: JobHandler): void;
}
