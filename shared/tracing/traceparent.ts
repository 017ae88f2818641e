import { context, isSpanContextValid, trace, TraceFlags } from "@opentelemetry/api";

/**
 * The W3C `traceparent` of the span now active, or undefined when there is
 * none (tracing off). Step calls send it, so a step reached over HTTP or a
 * service binding stays in the caller's trace even where the runtime does not
 * inject it itself.
 *
 * @example
 * const value = activeTraceparent(); // "00-<trace id>-<span id>-01"
 */
export function activeTraceparent(): string | undefined {
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  const sampled = (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  return `00-${spanContext.traceId}-${spanContext.spanId}-${sampled ? "01" : "00"}`;
}
