import type { Runtime } from "../../../compose/runtime.ts";
import { isJobMessage } from "../../../shared/jobs/types.ts";
import type { QueueBatch } from "../../../adapters/workers/queue-jobs.ts";
import { handleJobMessage } from "../../../shared/jobs/consume.ts";

type FetchApp = {
  fetch: (request: Request, env: Record<string, unknown>) => Response | Promise<Response>;
};

/** Seconds before Cloudflare Queues hands out again a message whose handler threw. */
const RETRY_DELAY_SECONDS = 5;

/**
 * The Workers `queue` handler: each message runs or delivers its job through
 * this Worker's own routes. A message is acked once handled; one whose
 * handler threw (the state object unreachable, say) is retried by the queue.
 */
export function jobQueueHandler(app: FetchApp, runtime: Runtime) {
  return async (batch: QueueBatch, env: Record<string, unknown>): Promise<void> => {
    const config = runtime.config(env);
    const backend = runtime.deps(config, env).jobs;
    for (const message of batch.messages) {
      if (!isJobMessage(message.body)) {
        console.error("jobs queue: dropped a message that is not a job message");
        message.ack();
        continue;
      }
      try {
        await handleJobMessage(message.body, {
          backend,
          config,
          fetch: async (request) => await app.fetch(request, env),
        });
        message.ack();
      } catch (error) {
        console.error(`jobs queue: ${message.body.step} of ${message.body.job_id} failed:`, error);
        message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      }
    }
  };
}
