import type { z } from "zod";
import { SiftError } from "../errors.ts";
import { readServerSentEvents, type ServerSentEvent } from "../http/event-reader.ts";
import { CACHE_SCOPE_HEADER } from "../cache/scope.ts";
import type { StepContext, StepTransport } from "./transport.ts";
import { context as otelContext, trace } from "@opentelemetry/api";
import { failSpan, inSpan, tracer } from "../tracing/spans.ts";
import { activeTraceparent } from "../tracing/traceparent.ts";

/**
 * A step that failed or took too long. The message names the step and keeps
 * the step's own public message (never a body it did not mean for callers).
 */
export class StepError extends SiftError {
  override name = "StepError";
  readonly step: string;
  /** The status the step answered with, when it answered (a 404 is "no such thing" to a caller). */
  readonly stepStatus: number | undefined;

  constructor(
    step: string,
    message: string,
    options: { timeout?: boolean; cause?: unknown; isRetryable?: boolean; status?: number } = {},
  ) {
    super(
      options.timeout ? "timeout" : "upstream_error",
      options.timeout ? 504 : 502,
      `The ${step} step failed: ${message}`,
      { cause: options.cause, isRetryable: options.isRetryable ?? Boolean(options.timeout) },
    );
    this.step = step;
    this.stepStatus = options.status;
  }
}

/** The step's name as events and errors spell it: `GENERATE_RUBRIC` → `generate-rubric`. */
export function stepLabel(transport: StepTransport): string {
  return transport.name.toLowerCase().replaceAll("_", "-");
}

/** An abort signal for one call: the caller's, plus a timer while `arm`ed. */
function callSignal(parent: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onAbort, { once: true });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
  };
  arm();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Restarts the timer: streams get `timeoutMs` between events, not for the whole stream. */
    arm,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}

function buildRequest(
  transport: StepTransport,
  path: string,
  body: unknown,
  context: Pick<StepContext, "headers">,
  signal: AbortSignal,
  method?: "DELETE",
): Request {
  const headers = new Headers({ "x-request-id": context.headers.requestId });
  if (context.headers.authorization) headers.set("authorization", context.headers.authorization);
  if (context.headers.cacheScope) headers.set(CACHE_SCOPE_HEADER, context.headers.cacheScope);
  // The step's span is active here: a step over HTTP or a binding joins this trace.
  const traceparent = activeTraceparent();
  if (traceparent) headers.set("traceparent", traceparent);
  if (body === undefined) {
    return new Request(`${transport.base}${path}`, {
      headers,
      signal,
      ...(method ? { method } : {}),
    });
  }
  if (body instanceof FormData) {
    // A file upload: the Request sets the multipart content type with its boundary.
    return new Request(`${transport.base}${path}`, { method: "POST", headers, body, signal });
  }
  headers.set("content-type", "application/json");
  return new Request(`${transport.base}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal,
  });
}

/** A step call's span attributes: which step, how it is reached, which route. */
function stepAttributes(transport: StepTransport, path: string) {
  return { "sift.step": stepLabel(transport), "sift.via": transport.via, "url.path": path };
}

/** The public error of a failed step's response, or its status when the body says nothing. */
async function failureOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") {
      return `${response.status} ${parsed.error.message}`;
    }
  } catch { /* not our error shape */ }
  return `HTTP ${response.status}`;
}

/** POSTs `body` (GETs without one); a failure to reach the step or a non-2xx reply is a `StepError`. */
async function send(
  transport: StepTransport,
  path: string,
  body: unknown,
  context: Pick<StepContext, "headers">,
  call: ReturnType<typeof callSignal>,
  method?: "DELETE",
): Promise<Response> {
  let response: Response;
  try {
    response = await transport.fetch(
      buildRequest(transport, path, body, context, call.signal, method),
    );
  } catch (error) {
    if (call.signal.aborted && !call.timedOut()) throw error; // the caller left
    throw new StepError(
      stepLabel(transport),
      call.timedOut() ? "no answer in time" : `could not be reached (${transport.via})`,
      { cause: error, timeout: call.timedOut(), isRetryable: true },
    );
  }
  if (!response.ok) {
    throw new StepError(stepLabel(transport), await failureOf(response), {
      isRetryable: response.status >= 500 || response.status === 429,
      status: response.status,
    });
  }
  return response;
}

/** How `callStep` reads the reply, whose request it continues, and how long it may take. */
export type CallStepOptions<T> = {
  schema: z.ZodType<T>;
  context: Pick<StepContext, "headers" | "signal">;
  timeoutMs: number;
  /** `DELETE` the route instead of GETting it (with no body). */
  method?: "DELETE";
};

/**
 * POSTs `body` to one of the step's public JSON routes (GETs the route when
 * `body` is undefined; sends a `FormData` body as `multipart/form-data`)
 * and validates what comes back. The caller's
 * credentials and request id go along; the call is aborted when the caller
 * leaves or after `timeoutMs`.
 */
export function callStep<T>(
  transport: StepTransport,
  path: string,
  body: unknown,
  options: CallStepOptions<T>,
): Promise<T> {
  return inSpan(
    `sift.step ${stepLabel(transport)}`,
    stepAttributes(transport, path),
    () => callStepInSpan(transport, path, body, options),
  );
}

async function callStepInSpan<T>(
  transport: StepTransport,
  path: string,
  body: unknown,
  options: CallStepOptions<T>,
): Promise<T> {
  const call = callSignal(options.context.signal, options.timeoutMs);
  try {
    const response = await send(transport, path, body, options.context, call, options.method);
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      if (call.signal.aborted && !call.timedOut()) throw error;
      throw new StepError(stepLabel(transport), "its reply was not JSON", {
        cause: error,
        timeout: call.timedOut(),
      });
    }
    const parsed = options.schema.safeParse(json);
    if (!parsed.success) {
      throw new StepError(stepLabel(transport), "its reply did not match the route's contract", {
        cause: parsed.error,
      });
    }
    return parsed.data;
  } finally {
    call.dispose();
  }
}

/**
 * POSTs `body` to one of the step's event-stream routes and yields its events
 * as they arrive. An `error` event becomes a `StepError`; a stream that ends
 * without `done` is a failure too. Leaving the loop early cancels the stream,
 * which the step sees as its caller going away.
 */
export async function* streamStep(
  transport: StepTransport,
  path: string,
  body: unknown,
  options: { context: Pick<StepContext, "headers" | "signal">; timeoutMs: number },
): AsyncGenerator<ServerSentEvent> {
  const call = callSignal(options.context.signal, options.timeoutMs);
  // A generator cannot keep a span active across its yields: the span is made active for the
  // call that opens the stream (so the step joins the trace) and ended when the stream stops.
  const span = tracer().startSpan(`sift.step ${stepLabel(transport)}`, {
    attributes: stepAttributes(transport, path),
  });
  const spanContext = trace.setSpan(otelContext.active(), span);
  try {
    const response = await otelContext.with(
      spanContext,
      () => send(transport, path, body, options.context, call),
    );
    if (!response.body) throw new StepError(stepLabel(transport), "its reply had no body");
    let done = false;
    try {
      for await (const event of readServerSentEvents(response.body)) {
        call.arm();
        if (event.event === "done") {
          done = true;
          break;
        }
        if (event.event === "error") {
          const data = event.data as { message?: unknown } | undefined;
          throw new StepError(
            stepLabel(transport),
            typeof data?.message === "string" ? data.message : "it sent an error event",
          );
        }
        yield event;
      }
    } catch (error) {
      if (error instanceof StepError || (call.signal.aborted && !call.timedOut())) throw error;
      throw new StepError(
        stepLabel(transport),
        call.timedOut() ? "its stream stalled" : "its stream broke",
        { cause: error, timeout: call.timedOut(), isRetryable: true },
      );
    }
    if (!done) throw new StepError(stepLabel(transport), "its stream ended before done");
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
    call.dispose();
  }
}
