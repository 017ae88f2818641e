import type { Config } from "../config.ts";
import { readServerSentEvents } from "../http/event-reader.ts";
import type { Job, JobBackend, JobMessage } from "./types.ts";
import { markInProcess } from "../ratelimit/origin.ts";
import { deliverOnce, retryDelayMs } from "./deliver.ts";
import { keyOfTenant } from "../tenants/keys.ts";

export type JobContext = {
  backend: JobBackend;
  config: Config;
  /** Runs one of this app's routes (the app's own `fetch`, in-process). */
  fetch: (request: Request) => Promise<Response>;
  now?: () => Date;
  /** The callback's HTTP client (tests). */
  deliver?: typeof fetch;
};

/**
 * One queue message: `run` the job's route, then `deliver` its outcome,
 * retried with exponential backoff. Messages may come more than once (a
 * platform queue delivers at least once): every step looks at the stored
 * job first and does only what is left.
 */
export async function handleJobMessage(message: JobMessage, context: JobContext): Promise<void> {
  if (message.step === "evaluate") return await continueEvaluation(message, context);
  const job = await context.backend.get(message.job_id);
  if (!job) return;
  if (message.step === "run") await runJob(job, context);
  else await deliverJob(job, context);
}

/**
 * Hands an in-process backend (memory) the consumer that runs its messages
 * through this app; a platform queue calls the entry's consumer instead.
 */
export function attachInProcessConsumer(
  backend: JobBackend,
  config: Config,
  fetch: (request: Request) => Promise<Response>,
): void {
  backend.attach?.((message) => handleJobMessage(message, { backend, config, fetch }));
}

const nowOf = (context: JobContext) => (context.now ?? (() => new Date()))();

/** A run older than the route's timeout and this is taken to have died with its process. */
const LEASE_SLACK_MS = 30_000;

/** Thrown for a message whose job another consumer is running: the queue redelivers it later. */
export class JobBusyError extends Error {
  override name = "JobBusyError";
  constructor(id: string) {
    super(`job ${id} is running elsewhere`);
  }
}

/**
 * An evaluation's next slice of questions: run by the evaluation's own route,
 * wherever the evaluate function is (in-process, a binding, a URL), which
 * queues the slice after it. A 5xx has the message handed out again.
 */
async function continueEvaluation(
  message: Extract<JobMessage, { step: "evaluate" }>,
  context: JobContext,
): Promise<void> {
  const headers = new Headers({ "content-type": "application/json" });
  // A key of the tenant that started the evaluation: its run lives in that tenant's cache.
  const key = keyOfTenant(context.config.apiKeyEntries, message.tenant);
  if (key) headers.set("authorization", `Bearer ${key}`);
  const response = await context.fetch(markInProcess(
    new Request(
      `http://sift.internal/v1/evaluations/${encodeURIComponent(message.job_id)}/continue`,
      { method: "POST", headers, body: JSON.stringify({ from: message.from }) },
    ),
  ));
  await response.body?.cancel();
  if (response.status >= 500) {
    throw new Error(`evaluation ${message.job_id} slice at ${message.from}: ${response.status}`);
  }
}

async function runJob(job: Job, context: JobContext): Promise<void> {
  if (job.status === "succeeded" || job.status === "failed") {
    // The process died between storing the outcome and its first delivery.
    if (job.delivery.attempts === 0 && !job.delivery.delivered_at) {
      await context.backend.save(job, { message: { job_id: job.id, step: "deliver" } });
    }
    return;
  }
  const now = nowOf(context);
  const lease = context.config.steps.timeoutMs + LEASE_SLACK_MS;
  if (job.status === "running" && now.getTime() - Date.parse(job.updated_at) < lease) {
    // Another consumer holds it (a queue delivers at least once): have the message again later.
    throw new JobBusyError(job.id);
  }
  job.status = "running";
  job.updated_at = now.toISOString();
  await context.backend.save(job);
  const outcome = await callRoute(job, context);
  const at = nowOf(context).toISOString();
  const finished: Job = { ...job, ...outcome, updated_at: at, finished_at: at };
  await context.backend.save(finished, { message: { job_id: job.id, step: "deliver" } });
}

async function deliverJob(job: Job, context: JobContext): Promise<void> {
  const { jobs } = context.config;
  if (job.delivery.delivered_at || !jobs.webhookSecret) return;
  if (job.status !== "succeeded" && job.status !== "failed") return;
  const now = nowOf(context);
  const outcome = await deliverOnce(job, {
    secret: jobs.webhookSecret,
    allowPrivate: jobs.allowPrivateCallbacks,
    now,
    ...(context.deliver ? { fetch: context.deliver } : {}),
  });
  const attempts = job.delivery.attempts + 1;
  const delivery: Job["delivery"] = {
    attempts,
    ...(outcome.status !== undefined ? { last_status: outcome.status } : {}),
  };
  if (outcome.ok) {
    await context.backend.save({
      ...job,
      updated_at: now.toISOString(),
      delivery: { ...delivery, delivered_at: now.toISOString() },
    });
    return;
  }
  delivery.last_error = outcome.error;
  if (attempts >= jobs.maxAttempts) {
    // Given up: the job is failed, and its result stays readable at GET /v1/jobs/:id.
    await context.backend.save({
      ...job,
      status: "failed",
      error: job.error ?? {
        type: "delivery_failed",
        message: `The callback failed ${attempts} times; the last time: ${outcome.error}`,
      },
      updated_at: now.toISOString(),
      delivery,
    });
    return;
  }
  const delayMs = retryDelayMs(attempts, jobs.retryBaseMs);
  delivery.next_attempt_at = new Date(now.getTime() + delayMs).toISOString();
  await context.backend.save(
    { ...job, updated_at: now.toISOString(), delivery },
    { message: { job_id: job.id, step: "deliver" }, delayMs },
  );
}

/**
 * Runs the route as a caller would, in-process: a JSON reply is the result,
 * an event stream is collected into `{events}`. A 4xx/5xx reply, or a
 * stream's `error` event, fails the job with the route's own error.
 */
async function callRoute(job: Job, context: JobContext): Promise<Partial<Job>> {
  const headers = new Headers({ "content-type": "application/json", "x-request-id": job.id });
  // The caller was authenticated when the job was accepted; the route checks keys again,
  // with a key of the caller's tenant, so the route sees what the caller would.
  const key = keyOfTenant(context.config.apiKeyEntries, job.tenant);
  if (key) headers.set("authorization", `Bearer ${key}`);
  try {
    // Marked in-process: the job was counted against the caller's rate limit when accepted.
    const response = await context.fetch(markInProcess(
      new Request(`http://sift.internal${job.route}`, {
        method: "POST",
        headers,
        body: JSON.stringify(job.body),
        signal: AbortSignal.timeout(context.config.steps.timeoutMs),
      }),
    ));
    if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const events = [];
      for await (const event of readServerSentEvents(response.body!)) events.push(event);
      const failure = events.find((event) => event.event === "error");
      if (failure) {
        const data = failure.data as { type?: string; message?: string };
        return {
          status: "failed",
          result: { events },
          error: { type: data.type ?? "upstream_error", message: data.message ?? "failed" },
        };
      }
      return { status: "succeeded", result: { events } };
    }
    const body = await response.json().catch(() => undefined);
    if (response.ok) return { status: "succeeded", result: body };
    const error = (body as { error?: { type?: string; message?: string } })?.error;
    return {
      status: "failed",
      error: {
        type: error?.type ?? "upstream_error",
        message: error?.message ?? `The route answered ${response.status}`,
        status: response.status,
      },
    };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return {
      status: "failed",
      error: {
        type: timedOut ? "timeout" : "internal_error",
        message: timedOut ? "The route did not finish in time" : "The route could not be run",
      },
    };
  }
}
