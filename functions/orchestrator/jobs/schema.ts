import { z } from "zod";

/**
 * The POST routes a job may run. Evaluations are jobs of their own
 * (`/v1/evaluations` answers 202), and jobs do not start jobs.
 */
export const JOB_ROUTES = [
  "/v1/query",
  "/v1/chat/completions",
  "/v1/responses",
  "/v1/search",
  "/v1/fuse",
  "/v1/documents",
  "/v1/embeddings",
  "/v1/rubrics",
  "/v1/rerank",
  "/v2/rerank",
  "/v1/answer",
  "/v1/judge/retrieval",
  "/v1/judge/answer",
  "/v1/judge/pairwise",
  "/v1/judge/similarity",
  "/v1/judge/synthetic-queries",
  "/v1/judge/tournament",
  "/v1/judge/agreement",
] as const;

export const jobRequestSchema = z.object({
  route: z.enum(JOB_ROUTES, { error: `must be one of ${JOB_ROUTES.join(", ")}` }),
  /** The route's own request body, validated by the route when the job runs. */
  body: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }),
  callback_url: z.string({ error: "must be a URL" }).max(2048),
  idempotency_key: z.string().min(1).max(255).regex(/^[\x21-\x7e]+$/, {
    error: "must be printable ASCII without spaces",
  }).optional(),
}).strict();

export type JobRequest = z.infer<typeof jobRequestSchema>;
