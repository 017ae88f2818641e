import { z } from "zod";

/** `POST /v1/jobs` (202) and `GET /v1/jobs/:id`: a job as its callers see it. */
export const publicJobSchema = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "succeeded", "failed"]),
  route: z.string(),
  idempotency_key: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().optional(),
  result: z.unknown().optional().meta({
    description: "The route's JSON reply, or for an event stream `{events: [{event, data}]}`",
  }),
  error: z.object({
    type: z.string(),
    message: z.string(),
    status: z.number().int().optional(),
  }).optional(),
  delivery: z.object({
    attempts: z.number().int(),
    delivered_at: z.string().optional(),
    last_status: z.number().int().optional(),
    last_error: z.string().optional(),
    next_attempt_at: z.string().optional(),
  }),
});
