import type { Context, Hono } from "hono";
import { z } from "zod";
import { NotFoundError } from "../../shared/errors.ts";
import type { AppEnv } from "../../shared/http/server.ts";
import { readJson } from "../../shared/http/validate.ts";
import { evalQuestionSchema, MAX_EVAL_QUESTIONS, withIds } from "./dataset.ts";
import { VARIANT_NAMES } from "./variants.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import { stepsOver } from "./default-steps.ts";
import { readJob, readReport, startEvaluation } from "./evaluate.ts";

/** Inline datasets carry reference answers: more room than other routes. */
const EVALUATION_BODY_BYTES = 4 * 1024 * 1024;

const idSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, {
  error: "must be 1-100 letters, digits, '_', '.', ':' or '-'",
});

const bodySchema = z.object({
  dataset: z.union([
    z.object({ questions: z.array(evalQuestionSchema).min(1).max(MAX_EVAL_QUESTIONS) }),
    z.object({ name: z.string().min(1).max(100) }),
  ], { error: "must be {questions: [...]} or {name}" }),
  variants: z.union([z.string().transform((list) => list.split(",")), z.array(z.string())])
    .transform((names) => names.map((name) => name.trim()).filter(Boolean))
    .pipe(
      z.array(z.string()).min(1, { error: `name at least one of ${VARIANT_NAMES.join(", ")}` }).max(
        10,
      ),
    )
    .default(["none", "one-turn"]),
  limit: z.number().int().min(1).max(MAX_EVAL_QUESTIONS).optional(),
  games_per_query: z.number().int().min(0).max(45).optional(),
  concurrency: z.number().int().min(1).max(8).optional(),
  namespace: namespaceSchema,
  run_id: idSchema.optional(),
});

/** Keeps background work alive after the response: `waitUntil` on Workers, nothing on Deno. */
function backgroundOf(c: Context): (work: Promise<unknown>) => void {
  return (work) => {
    try {
      c.executionCtx.waitUntil(work);
    } catch {
      // No execution context (Deno): the promise runs on by itself.
    }
  };
}

/**
 * `POST /v1/evaluations` starts a batch evaluation in the background (202),
 * `GET /v1/evaluations/:id` reports its status, progress and summary, and
 * `GET /v1/evaluations/:id/report` serves the HTML report once it is done
 * (`?format=json` for the JSON).
 */
export function mountEvaluations(app: Hono<AppEnv>): void {
  app.post("/v1/evaluations", async (c) => {
    const body = await readJson(c, bodySchema, { maxBytes: EVALUATION_BODY_BYTES });
    const dataset = "questions" in body.dataset
      ? { questions: withIds(body.dataset.questions) }
      : { name: body.dataset.name };
    const job = await startEvaluation(c.var.deps, c.env ?? {}, { ...body, dataset }, {
      background: backgroundOf(c),
      // The run outlives this request: its steps must not stop when the response is sent.
      steps: stepsOver({ ...c.var.steps, signal: new AbortController().signal }),
    });
    const statusUrl = `/v1/evaluations/${encodeURIComponent(job.id)}`;
    return c.json({
      id: job.id,
      status: job.status,
      status_url: statusUrl,
      report_url: `${statusUrl}/report`,
    }, 202);
  });

  app.get("/v1/evaluations/:id", async (c) => {
    const id = c.req.param("id");
    const job = idSchema.safeParse(id).success ? await readJob(c.var.deps, id) : undefined;
    if (!job) throw new NotFoundError(`No evaluation ${id}`);
    const statusUrl = `/v1/evaluations/${encodeURIComponent(job.id)}`;
    return c.json({ ...job, status_url: statusUrl, report_url: `${statusUrl}/report` });
  });

  app.get("/v1/evaluations/:id/report", async (c) => {
    const id = c.req.param("id");
    const format = c.req.query("format") === "json" ? "json" : "html";
    const report = idSchema.safeParse(id).success
      ? await readReport(c.var.deps, id, format)
      : undefined;
    if (report === undefined) {
      const job = idSchema.safeParse(id).success ? await readJob(c.var.deps, id) : undefined;
      throw new NotFoundError(
        job
          ? `The report of evaluation ${id} is not ready (status: ${job.status})`
          : `No evaluation ${id}`,
      );
    }
    if (format === "json") {
      return c.body(report, 200, { "content-type": "application/json; charset=utf-8" });
    }
    return c.body(report, 200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      "x-content-type-options": "nosniff",
    });
  });
}
