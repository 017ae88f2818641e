import type { Hono } from "hono";
import { NotFoundError, SiftError } from "../../../shared/errors.ts";
import { checkPublicUrl } from "../../../shared/http/public-url.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { readJson } from "../../../shared/http/validate.ts";
import { InvalidRequestError } from "../../../shared/errors.ts";
import type { Job } from "../../../shared/jobs/types.ts";
import { LIMITS } from "../../../shared/limits.ts";
import { attachInProcessConsumer } from "../../../shared/jobs/consume.ts";
import { publicJob } from "../../../shared/jobs/public.ts";
import { jobRequestSchema } from "./schema.ts";
import { describe, json } from "../../../shared/http/openapi.ts";
import { publicJobSchema } from "./responses.ts";

/**
 * `POST /v1/jobs` runs a POST route on the platform's queue and delivers its
 * result to `callback_url` as a signed webhook; `GET /v1/jobs/:id` reads it.
 */
export function mountJobs(app: Hono<AppEnv>): void {
  app.post(
    "/v1/jobs",
    describe({
      tag: "orchestrator",
      summary: "Run a POST route on the queue and deliver its result to a callback",
      description: "The result is POSTed to `callback_url` signed per Standard Webhooks " +
        "(`webhook-id`, `webhook-timestamp`, `webhook-signature`, secret `WEBHOOK_SECRET`), " +
        "retried with exponential backoff. `callback_url` must be https and public. The same " +
        "`idempotency_key` returns the same job and delivers once.",
      body: jobRequestSchema,
      responses: { 202: json("Queued; `Location` names the job", publicJobSchema) },
      errors: [503],
    }),
    async (c) => {
      const { config, deps } = c.var;
      if (!config.jobs.webhookSecret) {
        throw new SiftError(
          "not_configured",
          503,
          "Jobs need WEBHOOK_SECRET (whsec_ and base64 of a random key) to sign their callbacks",
        );
      }
      const request = await readJson(c, jobRequestSchema, { maxBytes: LIMITS.bodyBytes });
      const refused = checkPublicUrl(request.callback_url, {
        allowPrivate: config.jobs.allowPrivateCallbacks,
      });
      if (refused) throw new InvalidRequestError(`callback_url: ${refused}`);
      const env = c.var.steps.env;
      // In-process backends run the job here; a platform queue calls the entry's consumer.
      attachInProcessConsumer(deps.jobs, config, async (request) => await app.fetch(request, env));
      const now = new Date().toISOString();
      const job: Job = {
        id: `job_${crypto.randomUUID()}`,
        status: "queued",
        route: request.route,
        body: request.body,
        callback_url: request.callback_url,
        ...(request.idempotency_key ? { idempotency_key: request.idempotency_key } : {}),
        ...(c.var.tenant ? { tenant: c.var.tenant } : {}),
        created_at: now,
        updated_at: now,
        delivery: { attempts: 0 },
      };
      const { job: stored, created } = await deps.jobs.create(job);
      c.header("location", `/v1/jobs/${stored.id}`);
      if (!created) c.header("idempotent-replayed", "true");
      return c.json(publicJob(stored), 202);
    },
  );

  app.get(
    "/v1/jobs/:id",
    describe({
      tag: "orchestrator",
      summary: "A job's status, result and delivery",
      params: { id: "The job's id (`job_...`)" },
      responses: { 200: json("The job", publicJobSchema) },
      errors: [404],
    }),
    async (c) => {
      const id = c.req.param("id");
      const job = /^job_[\w-]{1,64}$/.test(id) ? await c.var.deps.jobs.get(id) : undefined;
      // Another tenant's job is not found: a 404 as for no job, so ids cannot be probed.
      if (!job || job.tenant !== c.var.tenant) throw new NotFoundError(`No job ${id}`);
      return c.json(publicJob(job));
    },
  );
}
