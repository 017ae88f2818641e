import type { Hono } from "hono";
import type { AppEnv } from "../../shared/http/app-env.ts";
import type { StepName } from "../../shared/steps/names.ts";
import { resolveStep } from "../../shared/steps/transport.ts";
import { FORWARDED_KEY_HEADER } from "../../shared/ratelimit/origin.ts";

/** Which function owns each public route the orchestrator does not compose itself. */
export const ROUTE_OWNERS: readonly { path: string; step: StepName }[] = [
  { path: "/v1/documents", step: "EMBED" },
  { path: "/v1/documents/*", step: "EMBED" },
  { path: "/v1/webhooks/documents", step: "EMBED" },
  { path: "/v1/embeddings", step: "EMBED" },
  { path: "/v1/search", step: "FUSE" },
  { path: "/v1/fuse", step: "FUSE" },
  { path: "/v1/rubrics", step: "GENERATE_RUBRIC" },
  { path: "/v1/rerank", step: "RERANK" },
  { path: "/v2/rerank", step: "RERANK" },
  { path: "/v1/answer", step: "ANSWER" },
  { path: "/v1/judge/*", step: "JUDGE" },
  { path: "/v1/evaluations", step: "EVALUATE" },
  { path: "/v1/evaluations/*", step: "EVALUATE" },
];

/**
 * The orchestrator deployed alone serves the whole public API: what it does
 * not compose goes, as it came (method, headers, streamed body), to the
 * function that owns the route, and its reply comes back untouched.
 */
export function mountForwarding(app: Hono<AppEnv>): void {
  for (const { path, step } of ROUTE_OWNERS) {
    app.all(path, async (c) => {
      const transport = resolveStep(step, c.var.steps);
      const url = new URL(c.req.url);
      const headers = new Headers(c.req.raw.headers);
      headers.set("x-request-id", c.var.steps.headers.requestId);
      // Counted here: without the client's address the owner takes it as internal,
      // and charges the work it schedules to the key this request was counted under.
      headers.delete("cf-connecting-ip");
      headers.delete(FORWARDED_KEY_HEADER);
      const counted = c.var.rateLimit?.key;
      if (counted) headers.set(FORWARDED_KEY_HEADER, counted);
      return await transport.fetch(
        new Request(`${transport.base}${url.pathname}${url.search}`, {
          method: c.req.method,
          headers,
          body: c.req.raw.body,
          signal: c.req.raw.signal,
          // Required by fetch for a streamed request body.
          ...(c.req.raw.body ? { duplex: "half" } : {}),
        } as RequestInit),
      );
    });
  }
}
