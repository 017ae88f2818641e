import type { Hono } from "hono";
import type { AppEnv } from "../../shared/http/app-env.ts";
import type { Runtime } from "../../compose/runtime.ts";
import type { StepName } from "../../shared/steps/names.ts";
import { backgroundStepContext } from "../../shared/steps/transport.ts";
import { backgroundEntry } from "../../shared/tenants/keys.ts";
import { scopeDepsToTenant } from "../../shared/tenants/scope.ts";
import { stepsOver } from "./default-steps.ts";
import { runScheduledEvaluation } from "./scheduled.ts";

/**
 * The nightly evaluation as a cron handler (Workers' `scheduled`, Deno.cron):
 * the same steps as a request's, reached from the app that owns the cron.
 */
export async function runNightly(
  app: Hono<AppEnv>,
  runtime: Runtime,
  serves: readonly StepName[],
  env: Record<string, unknown>,
): Promise<void> {
  const config = runtime.config(env);
  const context = backgroundStepContext({
    env,
    config,
    serves,
    fetch: async (request) => await app.fetch(request, env),
  });
  // Its history and reports are stored where its steps search: the same key's tenant.
  const tenant = backgroundEntry(config.apiKeyEntries)?.tenant;
  const deps = runtime.deps(config, env);
  await runScheduledEvaluation(tenant ? scopeDepsToTenant(deps, tenant) : deps, env, {
    steps: stepsOver(context),
  });
}

/** A Worker's `scheduled` handler that runs the nightly evaluation in the background. */
export function nightlyHandler(app: Hono<AppEnv>, runtime: Runtime, serves: readonly StepName[]) {
  return (
    _controller: unknown,
    env: Record<string, unknown>,
    ctx: { waitUntil(work: Promise<unknown>): void },
  ): void => ctx.waitUntil(runNightly(app, runtime, serves, env));
}
