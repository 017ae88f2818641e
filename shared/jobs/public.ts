import type { Job } from "./types.ts";

/** What callers see of a job (`GET /v1/jobs/:id` and the webhook's `data`): not its body. */
export function publicJob(job: Job) {
  return {
    id: job.id,
    status: job.status,
    route: job.route,
    ...(job.idempotency_key ? { idempotency_key: job.idempotency_key } : {}),
    created_at: job.created_at,
    updated_at: job.updated_at,
    ...(job.finished_at ? { finished_at: job.finished_at } : {}),
    ...(job.result !== undefined ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
    delivery: job.delivery,
  };
}
