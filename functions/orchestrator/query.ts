import type { Deps } from "../../shared/runtime.ts";
import type { SendEvent } from "../../shared/http/sse.ts";
import { StepClock } from "../../shared/steps.ts";
import type { MetadataFilter, SearchHit, SearchMode } from "../../shared/vector/port.ts";
import { type AnswerDocument, streamAnswer } from "../answer/answer.ts";
import { retrieveAndFuse } from "../fuse/fuse.ts";
import { search } from "../fuse/search.ts";
import { generateQueryVariations } from "../fuse/variations.ts";
import { rerank } from "../rerank/rerank.ts";
import { twoTurnRubric } from "../rerank-two-turn/rerank-two-turn.ts";
import type { RerankStrategy } from "../../shared/rerank/types.ts";

export type Pipeline = {
  retrieval: {
    mode: SearchMode;
    top_k: number;
    /** RAG-Fusion with this many LLM-written variations; 0 = off. */
    fusion: number;
  };
  rerank?: {
    strategy: RerankStrategy;
    top_n: number;
    batch_size: number;
    explain: boolean;
    weights?: number | Record<string, number> | undefined;
  } | undefined;
  namespace: string;
  filter?: MetadataFilter | undefined;
  /** Every step one after another, for measuring what the concurrency saves. */
  sequential: boolean;
};

function asText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A retrieved chunk as the answer prompt sees it: text plus title, source, date, authors. */
export function hitToDocument(hit: SearchHit): AnswerDocument {
  const authors = hit.metadata.authors;
  return {
    text: hit.text,
    id: hit.id,
    doc_id: hit.doc_id,
    title: asText(hit.metadata.title),
    url: asText(hit.metadata.url),
    published: asText(hit.metadata.published),
    authors: Array.isArray(authors) ? authors.map(String) : asText(authors),
  };
}

/**
 * One question through the pipeline: (query variations →) retrieval →
 * (rerank →) answer, sending events as each stage ends and answer tokens as
 * they arrive. A two-turn rubric depends only on the query, so it is
 * generated while variations and retrieval run. Every LLM and index call gets
 * `signal`, so a client that leaves stops the work.
 */
export async function runQuery(
  deps: Deps,
  input: { query: string; pipeline: Pipeline },
  send: SendEvent,
  signal: AbortSignal,
  clock: StepClock = new StepClock(),
): Promise<void> {
  const { rerank: rerankStep, sequential } = input.pipeline;
  const twoTurn = rerankStep?.strategy === "two-turn" ||
    rerankStep?.strategy === "two-turn-relevance";
  const generateTheRubric = () =>
    clock.run(
      "rubric",
      () =>
        twoTurnRubric(deps, {
          query: input.query,
          strategy: rerankStep!.strategy as "two-turn" | "two-turn-relevance",
          weights: rerankStep!.weights,
        }, signal),
      (resolved) => resolved,
    );
  const early = twoTurn && !sequential ? generateTheRubric() : undefined;
  // Awaited later; until then a failure must not surface as an unhandled rejection.
  early?.catch(() => {});

  const retrieved = await retrieve(deps, input.query, input.pipeline, signal, clock);
  await send("retrieval-end", retrieved);
  let documents = retrieved.results.map(hitToDocument);

  if (rerankStep && rerankStep.strategy !== "none") {
    const resolved = twoTurn ? await (early ?? generateTheRubric()) : undefined;
    if (resolved) {
      await send("rubric-end", { rubric: resolved.rubric, degraded: resolved.degraded });
    }
    const reranked = await clock.run(
      "rerank",
      () =>
        rerank(deps, {
          query: input.query,
          documents: retrieved.results.map((hit) => ({
            id: hit.id,
            text: hit.text,
            metadata: hit.metadata,
          })),
          strategy: rerankStep.strategy,
          top_n: rerankStep.top_n,
          rubric: resolved?.rubric,
          weights: twoTurn ? undefined : rerankStep.weights,
          explain: rerankStep.explain,
          batch_size: rerankStep.batch_size,
        }, signal),
      (result) => result.usage,
    );
    if (!resolved && reranked.rubric) await send("rubric-end", { rubric: reranked.rubric });
    await send("rerank-end", {
      results: reranked.results.map((result) => ({
        ...result,
        doc_id: retrieved.results[result.index]!.doc_id,
        title: retrieved.results[result.index]!.metadata.title,
      })),
      discarded: reranked.discarded,
      degraded: reranked.degraded,
      ...(reranked.warnings ? { warnings: reranked.warnings } : {}),
    });
    documents = reranked.results.map((result) => hitToDocument(retrieved.results[result.index]!));
  } else if (rerankStep?.strategy === "none") {
    documents = documents.slice(0, rerankStep.top_n);
  }

  const answerStarted = clock.elapsed();
  const stream = streamAnswer(deps, { query: input.query, documents }, signal);
  let step = await stream.next();
  for (; !step.done; step = await stream.next()) {
    await send("answer-delta", { text: step.value.text });
  }
  const { usage, ...answer } = step.value;
  clock.record("answer", answerStarted, usage);
  await send("answer-end", answer);
  await send("usage", { steps: clock.steps, total_ms: clock.elapsed() });
}

/** Retrieval, with RAG-Fusion's query variations first when asked for. */
async function retrieve(
  deps: Deps,
  query: string,
  pipeline: Pipeline,
  signal: AbortSignal,
  clock: StepClock,
): Promise<{
  queries: { text: string; origin: "original" | "variation" }[];
  results: SearchHit[];
  degraded?: true;
}> {
  const { retrieval, namespace, filter } = pipeline;
  const searchInput = { query, top_k: retrieval.top_k, mode: retrieval.mode, filter, namespace };
  if (retrieval.fusion === 0) {
    const results = await clock.run("retrieval", () => search(deps, searchInput, signal));
    return { queries: [{ text: query, origin: "original" }], results };
  }
  const variations = await clock.run(
    "query-variations",
    () => generateQueryVariations(deps, query, retrieval.fusion, signal),
    (result) => result.usage,
  );
  const fused = await clock.run(
    "retrieval",
    () => retrieveAndFuse(deps, searchInput, variations.queries, signal),
  );
  return { ...fused, ...(variations.degraded ? { degraded: true as const } : {}) };
}
