/**
 * The pipeline's LLM critical path, in-process over the demo corpus with the
 * offline model paced like a real one (OFFLINE_MODEL_LATENCY): per strategy,
 * the end-to-end time concurrent against `sequential: true`, the time to the
 * first answer token the client sees against when the answer call's own
 * first token was due, the prompt tokens against the relevance baseline, and
 * what a repeated query spends (caches warm).
 */
import { createSiftApp } from "../app.ts";
import { readServerSentEvents } from "../shared/http/event-reader.ts";

export type PipelineRow = {
  strategy: string;
  total_ms: number;
  sequential_ms: number;
  /** sequential / concurrent: what running steps side by side saves. */
  speedup: number;
  first_token_ms: number;
  /** Client's first answer-delta minus (answer step start + the model's time to first token). */
  first_token_overhead_ms: number;
  tokens_in: number;
  /** tokens_in over the relevance baseline's. */
  tokens_over_relevance: number;
  repeated_tokens_in: number;
};

const TTFT_MS = 150;
const LATENCY = `ttft=${TTFT_MS}ms,tps=300`;
const QUERY = "How does sift rerank passages by more than relevance?";

const STRATEGIES: Record<string, unknown> = {
  "none": { rerank: { strategy: "none" } },
  "relevance": { rerank: { strategy: "relevance" } },
  "one-turn": { rerank: { strategy: "one-turn" } },
  "two-turn": { rerank: { strategy: "two-turn" } },
  "fusion + two-turn": { retrieval: { fusion: true }, rerank: { strategy: "two-turn" } },
};

type Step = { name: string; started_ms: number; tokens_in: number };

/** A fresh app (cold caches) that has already loaded the demo corpus, so that is not timed. */
async function freshApp() {
  const app = createSiftApp();
  await (await app.request("/healthz", {}, { OFFLINE_MODEL_LATENCY: LATENCY })).body?.cancel();
  return app;
}

async function run(app: ReturnType<typeof createSiftApp>, pipeline: unknown, sequential: boolean) {
  const started = performance.now();
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: QUERY, pipeline: { ...pipeline as object, sequential } }),
  }, { OFFLINE_MODEL_LATENCY: LATENCY });
  let firstToken: number | undefined;
  let usage: { steps: Step[]; total_ms: number } | undefined;
  for await (const { event, data } of readServerSentEvents(response.body!)) {
    if (event === "answer-delta") firstToken ??= performance.now() - started;
    if (event === "usage") usage = data as typeof usage;
    if (event === "error") throw new Error(JSON.stringify(data));
  }
  if (!usage || firstToken === undefined) throw new Error("the query did not finish");
  const answer = usage.steps.find((step) => step.name === "answer")!;
  return {
    total: usage.total_ms,
    firstToken,
    overhead: firstToken - (answer.started_ms + TTFT_MS),
    tokensIn: usage.steps.reduce((sum, step) => sum + step.tokens_in, 0),
  };
}

export async function benchPipeline(): Promise<PipelineRow[]> {
  const rows: PipelineRow[] = [];
  for (const [strategy, pipeline] of Object.entries(STRATEGIES)) {
    // Fresh apps: cold caches for the first run of each mode.
    const concurrent = await run(await freshApp(), pipeline, false);
    const sequential = await run(await freshApp(), pipeline, true);
    const warm = await freshApp();
    await run(warm, pipeline, false);
    const repeated = await run(warm, pipeline, false);
    rows.push({
      strategy,
      total_ms: concurrent.total,
      sequential_ms: sequential.total,
      speedup: sequential.total / concurrent.total,
      first_token_ms: concurrent.firstToken,
      first_token_overhead_ms: concurrent.overhead,
      tokens_in: concurrent.tokensIn,
      tokens_over_relevance: 0,
      repeated_tokens_in: repeated.tokensIn,
    });
  }
  const relevance = rows.find((row) => row.strategy === "relevance")!.tokens_in || 1;
  for (const row of rows) row.tokens_over_relevance = row.tokens_in / relevance;
  return rows;
}

if (import.meta.main) console.log(JSON.stringify(await benchPipeline(), null, 2));
