import { trace } from "@opentelemetry/api";

type DenoTelemetry = { telemetry?: { tracerProvider?: unknown } };

/** Whether spans go to Deno's own exporter (`OTEL_DENO=true`), read when a span ends. */
function denoExports(): boolean {
  const deno = (globalThis as { Deno?: DenoTelemetry }).Deno;
  const provider = deno?.telemetry?.tracerProvider;
  return provider !== undefined && trace.getTracerProvider() === provider;
}

/**
 * A token count as a span attribute the exporter sends as an OTLP integer,
 * as the GenAI conventions type `gen_ai.usage.*_tokens`. Deno's exporter
 * sends a JS number as a double and a BigInt as an int64 (ext/telemetry's
 * attribute conversion), so it gets a BigInt; any other tracer (Workers',
 * the OpenTelemetry JS SDK, whose attribute check drops a BigInt) gets the
 * number, which their exporters send as they send numbers.
 *
 * @example
 * span.setAttribute("gen_ai.usage.input_tokens", tokenCount(412));
 */
export function tokenCount(tokens: number): number {
  // The API's types know no BigInt; Deno's span takes it as it takes any value.
  return denoExports() ? BigInt(Math.round(tokens)) as unknown as number : tokens;
}
