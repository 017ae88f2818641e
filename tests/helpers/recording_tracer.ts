/**
 * A tracer provider for in-process tests that records every span sift opens
 * (name, attributes, status, ended) through `@opentelemetry/api`. It has no
 * context manager, so parent links are not recorded: the e2e test with
 * Deno's exporter checks those.
 */
import {
  INVALID_SPAN_CONTEXT,
  type Span,
  type SpanStatus,
  trace,
  type Tracer,
} from "@opentelemetry/api";

export type RecordedSpan = {
  name: string;
  attributes: Record<string, unknown>;
  status?: SpanStatus;
  ended: boolean;
};

function recordingSpan(record: RecordedSpan): Span {
  const span: Span = {
    spanContext: () => INVALID_SPAN_CONTEXT,
    setAttribute: (key, value) => ((record.attributes[key] = value), span),
    setAttributes: (attributes) => (Object.assign(record.attributes, attributes), span),
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: (status) => ((record.status = status), span),
    updateName: (name) => ((record.name = name), span),
    end: () => void (record.ended = true),
    isRecording: () => true,
    recordException: () => {},
  };
  return span;
}

/** Registers the recorder as the global provider; `stop()` unregisters it. */
export function recordSpans() {
  const spans: RecordedSpan[] = [];
  const start = (name: string, options?: { attributes?: Record<string, unknown> }) => {
    const record: RecordedSpan = { name, attributes: { ...options?.attributes }, ended: false };
    spans.push(record);
    return recordingSpan(record);
  };
  const tracer = {
    startSpan: start,
    startActiveSpan: (name: string, ...rest: unknown[]) => {
      const options = rest.length > 1 ? rest[0] as { attributes?: Record<string, unknown> } : {};
      return (rest.at(-1) as (span: Span) => unknown)(start(name, options));
    },
  } as unknown as Tracer;
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  return { spans, stop: () => trace.disable() };
}
