import type { Config } from "../config.ts";
import { ConfigError } from "../errors.ts";
import type { StepName, Via } from "./names.ts";
import { markInProcess } from "../ratelimit/origin.ts";
import { backgroundEntry } from "../tenants/keys.ts";

export type FetchHandler = (request: Request) => Promise<Response>;

/** A function reachable as a step: where requests go and how they get there. */
export type StepTransport = {
  name: StepName;
  via: Via;
  /** The base URL requests are built on; the host means nothing for bindings and in-process. */
  base: string;
  fetch: FetchHandler;
};

/** What a composition needs to reach its steps, built per request. */
export type StepContext = {
  /** The request's environment: Workers bindings live here next to the variables. */
  env: Record<string, unknown>;
  config: Config;
  /** The functions bundled with this app, reachable without leaving the process. */
  local: Partial<Record<StepName, FetchHandler>>;
  /**
   * Forwarded on every step call: the caller's credentials, the request's id,
   * and its cache scope (`x-sift-cache-scope`) when it has one.
   */
  headers: {
    authorization?: string | undefined;
    requestId: string;
    cacheScope?: string | undefined;
  };
  /** Aborts when the caller goes away. */
  signal: AbortSignal;
};

type ServiceBinding = { fetch(request: Request): Promise<Response> };

function isServiceBinding(value: unknown): value is ServiceBinding {
  return typeof value === "object" && value !== null &&
    typeof (value as Partial<ServiceBinding>).fetch === "function";
}

/**
 * How this request reaches a step: a Workers service binding named like the
 * step when one is bound, else `STEP_URL_<NAME>` over HTTP, else the copy of
 * the function bundled in this app. A step with none of the three is a
 * deployment mistake, reported as such.
 *
 * @example
 * resolveStep("RERANK", context).via; // "binding" | "http" | "in-process"
 */
export function resolveStep(name: StepName, context: StepContext): StepTransport {
  const binding = context.env[name];
  if (isServiceBinding(binding)) {
    return {
      name,
      via: "binding",
      base: `https://${name.toLowerCase()}.binding`,
      fetch: (request) => binding.fetch(request),
    };
  }
  const url = context.config.steps.urls[name];
  if (url) return { name, via: "http", base: url, fetch: (request) => fetch(request) };
  const local = context.local[name];
  if (local) return { name, via: "in-process", base: "http://in-process", fetch: local };
  throw new ConfigError(
    `The ${name} step is not reachable: bind a service named ${name}, set STEP_URL_${name}, ` +
      `or run the all-in-one app`,
  );
}

/**
 * A step context for work no request started (the nightly evaluation): the
 * bundled functions reached through `fetch`, a key without a tenant (else the
 * first key) as the caller's credentials, and a signal nothing aborts.
 */
export function backgroundStepContext(options: {
  env: Record<string, unknown>;
  config: Config;
  serves: readonly StepName[];
  fetch: FetchHandler;
}): StepContext {
  const key = backgroundEntry(options.config.apiKeyEntries)?.key;
  // Marked in-process: a rate limit never counts work no caller sent.
  const local: FetchHandler = (request) => options.fetch(markInProcess(request));
  return {
    env: options.env,
    config: options.config,
    local: Object.fromEntries(options.serves.map((name) => [name, local])),
    headers: {
      requestId: `background-${crypto.randomUUID()}`,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    signal: new AbortController().signal,
  };
}
