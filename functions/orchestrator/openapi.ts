import type { Context } from "hono";
import { z } from "zod";
import type { OpenApiDocument } from "../../shared/http/openapi-document.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { callStep } from "../../shared/steps/call.ts";
import type { StepName } from "../../shared/steps/names.ts";
import { resolveStep } from "../../shared/steps/transport.ts";
import { ROUTE_OWNERS } from "./forward.ts";

/** What the orchestrator reads of an owner's document; the rest passes through. */
const ownerDocumentSchema = z.looseObject({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({
    schemas: z.record(z.string(), z.unknown()).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }).optional(),
});

/** Whether the orchestrator forwards `path` (OpenAPI's `{id}` form) to `step`. */
export function forwardsTo(step: StepName, path: string): boolean {
  return ROUTE_OWNERS.some((owner) =>
    owner.step === step &&
    (owner.path.endsWith("/*") ? path.startsWith(owner.path.slice(0, -1)) : owner.path === path)
  );
}

/**
 * The whole public API, for the orchestrator deployed alone: its own routes,
 * plus each owner's description of the routes forwarded to it, read from the
 * owner's `/openapi.json` over the same binding or URL the forwarding uses.
 * So this Worker bundles no other function's schemas, and the document says
 * what the deployed owners actually serve. Not cached: a function deployed
 * again shows at once, and each owner keeps its own document built.
 */
export async function withForwardedRoutes(
  c: Context<AppEnv>,
  own: OpenApiDocument,
): Promise<OpenApiDocument> {
  const steps = [...new Set(ROUTE_OWNERS.map((owner) => owner.step))];
  const documents = await Promise.all(
    steps.map((step) =>
      callStep(resolveStep(step, c.var.steps), "/openapi.json", undefined, {
        schema: ownerDocumentSchema,
        context: c.var.steps,
        timeoutMs: c.var.config.steps.timeoutMs,
      })
    ),
  );
  const paths = { ...own.paths };
  const components = { ...own.components };
  steps.forEach((step, position) => {
    const document = documents[position]!;
    for (const [path, item] of Object.entries(document.paths)) {
      if (!(path in paths) && forwardsTo(step, path)) paths[path] = item;
    }
    for (const kind of ["schemas", "parameters"] as const) {
      const found = document.components?.[kind];
      if (found) components[kind] = { ...found, ...components[kind] };
    }
  });
  return { ...own, paths, components };
}
