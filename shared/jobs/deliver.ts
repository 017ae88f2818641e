import { Webhook } from "standardwebhooks";
import { checkPublicUrl } from "../http/public-url.ts";
import type { Job } from "./types.ts";
import { publicJob } from "./public.ts";

/** How long a receiver may take to answer one delivery. */
const DELIVERY_TIMEOUT_MS = 15_000;

export type DeliveryOutcome = { ok: true; status: number } | {
  ok: false;
  status?: number;
  error: string;
};

/**
 * POSTs the job's outcome to its callback, signed per Standard Webhooks
 * (`webhook-id` is the job's id, the same on every attempt, so a receiver
 * can drop a repeat). Redirects are not followed: a 3xx is a failed attempt.
 */
export async function deliverOnce(
  job: Job,
  options: { secret: string; allowPrivate: boolean; now: Date; fetch?: typeof fetch },
): Promise<DeliveryOutcome> {
  const refused = checkPublicUrl(job.callback_url, { allowPrivate: options.allowPrivate });
  if (refused) return { ok: false, error: `callback_url ${refused}` };
  // The same bytes on every attempt: a receiver that stored the first can compare.
  const { delivery: _delivery, updated_at: _updated, ...data } = publicJob(job);
  const payload = JSON.stringify({
    type: job.status === "succeeded" ? "job.succeeded" : "job.failed",
    timestamp: job.finished_at ?? job.created_at,
    data,
  });
  const signature = new Webhook(options.secret).sign(job.id, options.now, payload);
  try {
    const response = await (options.fetch ?? fetch)(job.callback_url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "sift-webhooks",
        "webhook-id": job.id,
        "webhook-timestamp": String(Math.floor(options.now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300
      ? { ok: true, status: response.status }
      : { ok: false, status: response.status, error: `the receiver answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return { ok: false, error: timedOut ? "the receiver did not answer in time" : "unreachable" };
  }
}

/** The wait before attempt `attempts + 1`: `base`, then doubling. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempts - 1);
}
