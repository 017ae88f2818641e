/**
 * `deno task bench:rerank`: two figures, each a ratio within one run.
 *
 * 1. The cross-encoder as a first stage (`prefilter`): the same reranking
 *    of N candidates by the LLM strategy alone, and with Workers AI's
 *    reranker keeping K first. Reports LLM calls, tokens and time per query.
 *    The LLM is the offline model paced like a real one; the cross-encoder is
 *    a loopback FAKE of Workers AI's REST API (tests/helpers/workers_ai_fake.ts),
 *    so its quality says nothing: only calls, tokens and time are measured.
 * 2. Tracing off: what sift's spans cost when no tracer provider is
 *    registered. A span around a no-op against the no-op alone, per span,
 *    times the spans one rerank request opens, over that request's time.
 *
 *   deno task bench:rerank [--queries 4] [--candidates 30] [--keep 10]
 */
import { INVALID_SPAN_CONTEXT, type Span, trace, type Tracer } from "@opentelemetry/api";
import { createSiftApp } from "../app.ts";
import { inSpan } from "../shared/tracing/spans.ts";
import {
  FAKE_ACCOUNT_ID,
  FAKE_API_TOKEN,
  startWorkersAiRestFake,
} from "../tests/helpers/workers_ai_fake.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task bench:rerank [options]",
  about:
    `Two ratios, each within one run: the cross-encoder as a first stage (LLM calls, tokens and time
per query, against a loopback fake of Workers AI's REST API), and what tracing costs when no
tracer provider is registered.`,
  flags: {
    queries: { type: "string", value: "N", help: "queries (at most 20)", default: "4" },
    candidates: {
      type: "string",
      value: "N",
      help: "candidates per query (at most 100)",
      default: "30",
    },
    keep: { type: "string", value: "N", help: "candidates the cross-encoder keeps", default: "10" },
  },
} satisfies Command;

const { values: given, positionals } = commandArgs(COMMAND);
if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
const values = { queries: "4", candidates: "30", keep: "10", ...given };
for (const [name, value] of Object.entries(values)) {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    usageMistake(COMMAND, `--${name} must be a whole number above 0`);
  }
}
const QUERIES = Math.min(Number(values.queries), 20);
const CANDIDATES = Math.min(Number(values.candidates), 100);
const KEEP = Math.min(Number(values.keep), CANDIDATES);

const TOPICS = ["ranking", "retrieval", "embeddings", "caching", "tracing", "pricing"];
function candidates(seed: number): string[] {
  return Array.from({ length: CANDIDATES }, (_, i) => {
    const topic = TOPICS[(i + seed) % TOPICS.length]!;
    return `Passage ${i} on ${topic}: how ${topic} works in a retrieval pipeline, with notes on ` +
      `${TOPICS[(i * 7 + seed) % TOPICS.length]} and a worked example number ${i * 13 + seed}.`;
  });
}

type Native = { usage: { tokens_in: number; tokens_out: number; llm_calls: number } };

async function prefilterRows() {
  const fake = startWorkersAiRestFake();
  const env = {
    DEMO_CORPUS: "false",
    OFFLINE_MODEL_LATENCY: "ttft=100ms,tps=400",
    CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
    CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
    CLOUDFLARE_API_BASE_URL: fake.apiBaseUrl,
  };
  const rows = [];
  try {
    for (const prefilter of [false, true]) {
      const app = createSiftApp(); // a fresh cache: no run answers from the other's
      let calls = 0, tokens = 0, elapsed = 0;
      for (let q = 0; q < QUERIES; q++) {
        const started = performance.now();
        const response = await app.request("/v1/rerank", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query: `How does ${TOPICS[q % TOPICS.length]} work?`,
            documents: candidates(q),
            strategy: "one-turn",
            ...(prefilter
              ? { prefilter: { model: "@cf/baai/bge-reranker-base", top_n: KEEP } }
              : {}),
          }),
        }, env);
        const body = await response.json() as Native;
        elapsed += performance.now() - started;
        calls += body.usage.llm_calls;
        tokens += body.usage.tokens_in + body.usage.tokens_out;
      }
      rows.push({
        run: prefilter ? `prefilter keeps ${KEEP}` : "LLM alone",
        llm_calls_per_query: calls / QUERIES,
        tokens_per_query: Math.round(tokens / QUERIES),
        ms_per_query: Math.round(elapsed / QUERIES),
      });
    }
  } finally {
    await fake.close();
  }
  return rows;
}

async function tracingOff() {
  const noop = () => Promise.resolve(1);
  const spanned = () => inSpan("sift.bench", { "sift.step": "x" }, noop);
  const N = 50_000;
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < N; i++) await fn();
    return (performance.now() - started) / N;
  };
  await time(noop); // warm-up, both paths
  await time(spanned);
  const bare = await time(noop);
  const withSpan = await time(spanned);
  const perSpanMs = Math.max(0, withSpan - bare);

  // Offline rerank requests, each on other documents so no cache answers, tracing off.
  const app = createSiftApp();
  let seed = 100;
  const request = async () => {
    const response = await app.request("/v1/rerank", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "How does ranking work?",
        documents: candidates(seed++),
        strategy: "one-turn",
      }),
    }, { DEMO_CORPUS: "false" });
    await response.arrayBuffer();
  };
  await request();
  const started = performance.now();
  for (let i = 0; i < 5; i++) await request();
  const requestMs = (performance.now() - started) / 5;

  // How many spans such a request opens: counted by a provider registered only now.
  let spans = 0;
  const span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  const counting = {
    startSpan: () => (spans++, span),
    startActiveSpan: (...args: unknown[]) => {
      spans++;
      return (args.at(-1) as (span: Span) => unknown)(span);
    },
  } as unknown as Tracer;
  trace.setGlobalTracerProvider({ getTracer: () => counting });
  await request();
  trace.disable();
  return {
    per_span_ns: Math.round(perSpanMs * 1e6),
    spans_per_request: spans,
    request_ms: Math.round(requestMs * 10) / 10,
    overhead_ratio: (perSpanMs * spans) / requestMs,
  };
}

const prefilter = await prefilterRows();
console.log(
  `Rerank of ${CANDIDATES} candidates, ${QUERIES} queries (offline model paced ttft=100ms; cross-encoder: a loopback fake)`,
);
console.table(prefilter);
const off = await tracingOff();
console.log("Tracing off (no provider registered):");
console.table([off]);
console.log(
  `spans cost ${(off.overhead_ratio * 100).toFixed(4)}% of a rerank request with tracing off`,
);
