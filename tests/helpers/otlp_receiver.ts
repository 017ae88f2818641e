/**
 * A loopback OTLP/HTTP receiver for tests: takes `POST /v1/traces` in the
 * JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps every
 * span it decodes, flattened with its attributes as plain values. Logs and
 * metrics are accepted and dropped.
 */

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  scope: string;
  /** The exporting process's `service.name`. */
  service: string;
  attributes: Record<string, string | number | boolean>;
  /** The attributes that arrived as OTLP integers (`intValue`), not doubles. */
  integers: string[];
};

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return JSON.stringify(value);
}

type ExportTraceRequest = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: { key: string; value: AnyValue }[];
      }[];
    }[];
  }[];
};

/** The spans in one export request (trace and span ids as the hex the JSON encoding uses). */
export function decodeTraces(body: ExportTraceRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) => {
    const service = resource.resource?.attributes?.find((a) => a.key === "service.name")?.value;
    return (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId.toLowerCase(),
        spanId: span.spanId.toLowerCase(),
        parentSpanId: (span.parentSpanId ?? "").toLowerCase(),
        name: span.name,
        scope: scope.scope?.name ?? "",
        service: service ? String(plain(service)) : "",
        attributes: Object.fromEntries(
          (span.attributes ?? []).map((attribute) => [attribute.key, plain(attribute.value)]),
        ),
        integers: (span.attributes ?? []).filter((attribute) =>
          attribute.value.intValue !== undefined
        ).map((attribute) => attribute.key),
      }))
    );
  });
}

export function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      contentTypes.add(request.headers.get("content-type") ?? "");
      const text = await request.text();
      if (path === "/v1/traces" && request.method === "POST") {
        spans.push(...decodeTraces(JSON.parse(text) as ExportTraceRequest));
      }
      return Response.json({});
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    spans,
    contentTypes,
    /** Waits (bounded) until `ready(spans)` holds; the spans either way. */
    async waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ready(spans) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return spans;
    },
    close: () => server.shutdown(),
  };
}
