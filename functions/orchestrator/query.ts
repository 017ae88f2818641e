import type { Deps } from "../../shared/runtime.ts";
import type { SendEvent } from "../../shared/http/sse.ts";
import { StepClock } from "../../shared/steps.ts";
import type { MetadataFilter, SearchHit, SearchMode } from "../../shared/vector/port.ts";
import { type AnswerDocument, streamAnswer } from "../answer/answer.ts";
import { retrieveAndFuse } from "../fuse/fuse.ts";
import { search } from "../fuse/search.ts";
import { generateQueryVariations } from "../fuse/variations.ts";

export type Pipeline = {
  retrieval: {
    mode: SearchMode;
    top_k: number;
    /** RAG-Fusion with this many LLM-written variations; 0 = off. */
    fusion: number;
  };
  namespace: string;
  filter?: MetadataFilter | undefined;
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
 * One question through the pipeline: (query variations →) retrieval → answer,
 * sending events as each stage ends and answer tokens as they arrive. Every
 * LLM and index call gets `signal`, so a client that leaves stops the work.
 */
export async function runQuery(
  deps: Deps,
  input: { query: string; pipeline: Pipeline },
  send: SendEvent,
  signal: AbortSignal,
  clock: StepClock = new StepClock(),
): Promise<void> {
  const { retrieval, namespace, filter } = input.pipeline;
  const searchInput = {
    query: input.query,
    top_k: retrieval.top_k,
    mode: retrieval.mode,
    filter,
    namespace,
  };

  let queries: { text: string; origin: "original" | "variation" }[] = [
    { text: input.query, origin: "original" },
  ];
  let results: SearchHit[];
  let degraded = false;
  if (retrieval.fusion > 0) {
    const variations = await clock.run(
      "query-variations",
      () => generateQueryVariations(deps, input.query, retrieval.fusion, signal),
      (result) => result.usage,
    );
    degraded = variations.degraded;
    const fused = await clock.run(
      "retrieval",
      () => retrieveAndFuse(deps, searchInput, variations.queries, signal),
    );
    queries = fused.queries;
    results = fused.results;
  } else {
    results = await clock.run("retrieval", () => search(deps, searchInput, signal));
  }
  await send("retrieval-end", { queries, results, ...(degraded ? { degraded: true } : {}) });

  const answerStarted = clock.elapsed();
  const stream = streamAnswer(
    deps,
    { query: input.query, documents: results.map(hitToDocument) },
    signal,
  );
  let step = await stream.next();
  for (; !step.done; step = await stream.next()) {
    await send("answer-delta", { text: step.value.text });
  }
  const { usage, ...answer } = step.value;
  clock.record("answer", answerStarted, usage);
  await send("answer-end", answer);
  await send("usage", { steps: clock.steps, total_ms: clock.elapsed() });
}
