import { type Span, SpanKind } from "@opentelemetry/api";
import { failSpan, inSpan, tracer } from "./spans.ts";
import { tokenCount } from "./token-count.ts";

/** What a model call reports when it ends. */
export type ModelCallResult = {
  tokensIn: number;
  tokensOut: number;
  /** The model the provider says answered (`gen_ai.response.model`). */
  responseModel?: string | undefined;
};

/** Who is called, as the OpenTelemetry GenAI conventions name it. */
export type ModelCall = {
  /** `chat`, `embeddings`, or `rerank`. */
  operation: "chat" | "embeddings" | "rerank";
  /** `gen_ai.provider.name`: `openai`, `workers_ai`, `sift.offline`... */
  provider: string;
  model: string;
};

function startAttributes(call: ModelCall) {
  return {
    "gen_ai.operation.name": call.operation,
    "gen_ai.provider.name": call.provider,
    "gen_ai.request.model": call.model,
  };
}

/** Sets what a model call reports when it ends: the tokens and the model that answered. */
export function endModelCall(span: Span, call: ModelCall, result: ModelCallResult): void {
  span.setAttributes({
    "gen_ai.response.model": result.responseModel ?? call.model,
    "gen_ai.usage.input_tokens": tokenCount(result.tokensIn),
    "gen_ai.usage.output_tokens": tokenCount(result.tokensOut),
  });
}

/**
 * One model call as a client span named `{operation} {model}` carrying the
 * GenAI attributes (`gen_ai.operation.name`, `gen_ai.provider.name`,
 * `gen_ai.request.model`, `gen_ai.response.model`, `gen_ai.usage.*_tokens`).
 */
export function inModelCall<T>(
  call: ModelCall,
  work: () => Promise<T>,
  resultOf: (value: T) => ModelCallResult,
): Promise<T> {
  return inSpan(`${call.operation} ${call.model}`, startAttributes(call), async (span) => {
    const value = await work();
    endModelCall(span, call, resultOf(value));
    return value;
  }, SpanKind.CLIENT);
}

/**
 * A model call's span for a stream: started now, ended by the caller with
 * `end(result)` or `fail(error)`, whichever comes first.
 */
export function startModelCall(call: ModelCall) {
  const span = tracer().startSpan(`${call.operation} ${call.model}`, {
    kind: SpanKind.CLIENT,
    attributes: startAttributes(call),
  });
  let ended = false;
  return {
    /** Ends the span with what the call reported; a second call does nothing. */
    end(result: ModelCallResult) {
      if (ended) return;
      ended = true;
      endModelCall(span, call, result);
      span.end();
    },
    fail(error: unknown) {
      if (ended) return;
      ended = true;
      failSpan(span, error);
      span.end();
    },
  };
}
