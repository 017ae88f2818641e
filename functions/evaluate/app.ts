import type { Context, Hono } from "hono";
import { z } from "zod";
import { InvalidRequestError, NotFoundError } from "../../shared/errors.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson } from "../../shared/http/validate.ts";
import { chargeRateLimit } from "../../shared/ratelimit/middleware.ts";
import { evalQuestionSchema, MAX_EVAL_QUESTIONS, withIds } from "./dataset.ts";
import { variantsSchema } from "./variant-schema.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import { stepsOver } from "./default-steps.ts";
import { readJob, readReport, startEvaluation } from "./evaluate.ts";
import { tenantFieldOf } from "../../shared/tenants/scope.ts";
import { isScheduledRunId, SCHEDULED_RUN_PREFIX } from "./scheduled-id.ts";
import { failJob, readInput, runJob, runJobSlice } from "./jobs.ts";
import { MAX_REPEAT } from "./run.ts";
import { attachInProcessConsumer } from "../../shared/jobs/consume.ts";
import { describe, json, jsonContent } from "../../shared/http/openapi.ts";
import {
  evaluationReportSchema,
  evaluationStartedSchema,
  evaluationStatusSchema,
  reportQuerySchema,
} from "./responses.ts";

/** Inline datasets carry reference answers: more room than other routes. */
const EVALUATION_BODY_BYTES = 4 * 1024 * 1024;

const idSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, {
  error: "must be 1-100 letters, digits, '_', '.', ':' or '-'",
});

const bodySchema = z.strictObject({
  dataset: z.union([
    z.strictObject({
      questions: z.array(evalQuestionSchema.strict()).min(1).max(MAX_EVAL_QUESTIONS),
    }),
    z.strictObject({ name: z.string().min(1).max(100) }),
  ], { error: "must be {questions: [...]} or {name}" }),
  variants: variantsSchema,
  limit: z.number().int().min(1).max(MAX_EVAL_QUESTIONS).optional(),
  games_per_query: z.number().int().min(0).max(45).optional(),
  concurrency: z.number().int().min(1).max(8).optional(),
  repeat: z.number().int().min(1).max(MAX_REPEAT, { error: `must be at most ${MAX_REPEAT}` })
    .optional().meta({
      description: "Runs per question (default 1), each with its own cache scope so the " +
        "model is asked again; the intervals then cover the spread between runs.",
    }),
  namespace: namespaceSchema,
  run_id: idSchema.refine((id) => !isScheduledRunId(id), {
    error: `must not start with "${SCHEDULED_RUN_PREFIX}": those ids belong to the scheduled run`,
  }).optional(),
});

const continueSchema = z.object({
  from: z.number().int().min(0).max(MAX_EVAL_QUESTIONS),
}).strict();

const continueResultSchema = z.object({
  id: z.string(),
  status: z.enum(["running", "done", "failed"]),
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  next: z.number().int().optional(),
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
  app.post(
    "/v1/evaluations",
    describe({
      tag: "evaluate",
      summary: "Start a batch evaluation of pipeline variants",
      description: "The run goes on in the background (`waitUntil` on Workers); running the " +
        "same `run_id` again resumes it. Variants: none, one-turn, two-turn, relevance, " +
        "two-turn-relevance, item, tot, each optionally `+fusion`.",
      body: bodySchema,
      responses: { 202: json("Started", evaluationStartedSchema) },
      errors: [409],
    }),
    async (c) => {
      const body = await readJson(c, bodySchema, { maxBytes: EVALUATION_BODY_BYTES });
      const dataset = "questions" in body.dataset
        ? { questions: withIds(body.dataset.questions) }
        : { name: body.dataset.name };
      // In-process backends (memory) run the evaluation's queue messages through this app.
      const env = c.var.steps.env;
      attachInProcessConsumer(
        c.var.deps.jobs,
        c.var.config,
        async (request) => await app.fetch(request, env),
      );
      const job = await startEvaluation(c.var.deps, c.env ?? {}, { ...body, dataset }, {
        background: backgroundOf(c),
        // The run outlives this request: its steps must not stop when the response is sent.
        steps: stepsOver({ ...c.var.steps, signal: new AbortController().signal }),
        // Rate limits count the steps an evaluation schedules, not one request.
        admit: async (steps) => {
          const limit = c.var.config.evalMaxSteps;
          if (steps > limit) {
            throw new InvalidRequestError(
              `dataset: ${steps} questions × variants × runs is more than the ${limit} steps one ` +
                "evaluation may schedule (EVAL_MAX_STEPS); use limit, fewer variants or split the run",
            );
          }
          await chargeRateLimit(c, steps);
        },
      });
      const statusUrl = `/v1/evaluations/${encodeURIComponent(job.id)}`;
      return c.json({
        id: job.id,
        status: job.status,
        status_url: statusUrl,
        report_url: `${statusUrl}/report`,
      }, 202);
    },
  );

  app.post(
    "/v1/evaluations/:id/continue",
    describe({
      tag: "evaluate",
      summary: "Run an evaluation's next slice of questions (sent by its queue)",
      description: "What each queue message of an evaluation does: questions `from` to " +
        "`from + EVAL_SLICE_QUESTIONS`, checkpointed, then the next message, or the report " +
        "after the last slice. Sending it again is harmless: finished units are reused.",
      params: { id: "The evaluation's id" },
      body: continueSchema,
      responses: { 200: json("What the slice did", continueResultSchema) },
      errors: [404],
    }),
    async (c) => {
      const id = c.req.param("id");
      const { from } = await readJson(c, continueSchema, { maxBytes: 1024 });
      const { deps, config } = c.var;
      // A scheduled run is not on the queue: a message for it can only come from a caller.
      const job = idSchema.safeParse(id).success && !isScheduledRunId(id)
        ? await readJob(deps, id)
        : undefined;
      if (!job) throw new NotFoundError(`No evaluation ${id}`);
      if (job.status !== "running") return c.json({ id, status: job.status });
      const input = await readInput(deps, id);
      if (!input) {
        await failJob(deps, job, "The evaluation's questions expired before it finished");
        return c.json({ id, status: "failed" });
      }
      // The work belongs to the queue message, not to a caller who may leave.
      const steps = stepsOver({ ...c.var.steps, signal: new AbortController().signal });
      const to = from + config.evalSliceQuestions;
      const questions = await runJobSlice(deps, job, input, { from, to }, { steps });
      if (to < questions) {
        await deps.jobs.enqueue({ job_id: id, step: "evaluate", from: to, ...tenantFieldOf(deps) });
        return c.json({ id, status: "running", from, to, next: to });
      }
      // Every unit is checkpointed by now: this pass aggregates and writes the report.
      const report = await runJob(deps, job, input, { steps });
      return c.json({ id, status: report ? "done" : "failed", from, to });
    },
  );

  app.get(
    "/v1/evaluations/:id",
    describe({
      tag: "evaluate",
      summary: "An evaluation's status, progress and summary",
      params: { id: "The evaluation's id" },
      responses: { 200: json("The evaluation", evaluationStatusSchema) },
      errors: [404],
    }),
    async (c) => {
      const id = c.req.param("id");
      const job = idSchema.safeParse(id).success ? await readJob(c.var.deps, id) : undefined;
      if (!job) throw new NotFoundError(`No evaluation ${id}`);
      const statusUrl = `/v1/evaluations/${encodeURIComponent(job.id)}`;
      return c.json({ ...job, status_url: statusUrl, report_url: `${statusUrl}/report` });
    },
  );

  app.get(
    "/v1/evaluations/:id/report",
    describe({
      tag: "evaluate",
      summary: "An evaluation's report, once it is done",
      description: "One self-contained HTML page with charts; `?format=json` for the JSON.",
      params: { id: "The evaluation's id" },
      query: reportQuerySchema,
      responses: {
        200: {
          description: "The report",
          content: {
            "text/html": { schema: { type: "string" } },
            ...jsonContent(evaluationReportSchema),
          },
        },
      },
      errors: [404],
    }),
    async (c) => {
      const id = c.req.param("id");
      const format = reportQuerySchema.safeParse(c.req.query()).data?.format ?? "html";
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
    },
  );
}
