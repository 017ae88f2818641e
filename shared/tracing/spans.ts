import {
  type Attributes,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from "@opentelemetry/api";

/** The instrumentation scope every sift span carries. */
export const TRACER_NAME = "sift";

/**
 * sift's tracer. Through `@opentelemetry/api` only: with no tracer provider
 * registered (tracing off) every call below is the API's no-op, so sift pays
 * nothing measurable; Deno (`OTEL_DENO=true`) and Workers register their own.
 */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** Ends `span` as failed, with the error's class (never a message meant for logs only). */
export function failSpan(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : "Error";
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
  span.setAttribute("error.type", name);
}

/**
 * Runs `work` in a span that is the active one while it runs, so spans and
 * model calls under it become its children; the span ends when `work`
 * settles, marked failed on a throw.
 *
 * @example
 * const hits = await inSpan("sift.retrieval", { "sift.namespace": ns }, () => search());
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
