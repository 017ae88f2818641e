import { z } from "zod";
import { readQuestions } from "./read-questions.ts";
import { syntheticQueriesPrompt } from "../../prompts/synthetic-queries.ts";
import { mapSettled } from "../../shared/concurrency.ts";
import { completeObject, completeText, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { neutralizeTags, renderDocuments, renderTemplate } from "../../shared/llm/prompt.ts";
import type { Deps } from "../../shared/deps.ts";
import { cachedJudgment, judgeCacheKey } from "./cache.ts";
import { oneLine } from "./render.ts";
import { addUsage } from "./usage.ts";
import { dedupeQuestions } from "./dedupe.ts";

export type SyntheticPassage = {
  id?: string | undefined;
  text: string;
  title?: string | undefined;
};

export type SyntheticInput = {
  passages: readonly SyntheticPassage[];
  /** Real user questions, shown as few-shot examples of style and detail. */
  examples?: readonly string[] | undefined;
  /** Questions asked of each model per passage. Default 3. */
  per_passage?: number | undefined;
  /** Each model writes questions (paper 001 pools four). Default: `deps.llm.model`. */
  models?: readonly string[] | undefined;
};

export type SyntheticQuery = { question: string; passage_index: number; model: string };

export type SyntheticQueries = { queries: SyntheticQuery[]; degraded: boolean; usage: TokenUsage };

export const DEFAULT_PER_PASSAGE = 3;
const CONCURRENCY = 4;

/** Keeps what looks like a question: de-numbered, unquoted, of a sensible length. */
export function cleanQuestions(candidates: readonly string[]): string[] {
  return candidates
    .map((candidate) =>
      oneLine(candidate.replace(/^\s*(?:[-*•]|\d+[.)]|Q\d*[:.])\s*/i, ""))
        .replace(/^["'“]+|["'”]+$/g, "").trim()
    )
    .filter((question) => question.length >= 5 && question.length <= 500);
}

async function writeQuestions(
  deps: { llm: LlmContext; cache: Deps["cache"] },
  passage: SyntheticPassage,
  examples: string,
  count: number,
  signal: AbortSignal | undefined,
): Promise<{ questions: string[]; usage: TokenUsage; degraded: boolean }> {
  const prompt = syntheticQueriesPrompt;
  const { llm } = deps;
  const user = renderTemplate(prompt.user, {
    examples,
    passage: renderDocuments([{ text: passage.text, title: passage.title }]),
  });
  const key = await judgeCacheKey(prompt, llm, [count, user]);
  return await cachedJudgment(deps.cache, key, async () => {
    const request = {
      prompt,
      system: renderTemplate(prompt.system, {
        count,
        format: renderTemplate(llm.structuredOutputs ? prompt.formatJson : prompt.formatText, {
          count,
        }),
      }),
      user,
      signal,
    };
    let candidates: string[];
    let usage: TokenUsage;
    if (llm.structuredOutputs) {
      const reply = await completeObject(llm, {
        ...request,
        schema: z.object({ questions: z.array(z.string()) }),
        schemaName: "synthetic_queries",
      });
      // A provider that ignores the JSON format still wrote questions: read its lines.
      candidates = reply.object?.questions ?? readQuestions(reply.text);
      usage = reply.usage;
    } else {
      const reply = await completeText(llm, request);
      candidates = readQuestions(reply.text);
      usage = reply.usage;
    }
    const questions = cleanQuestions(candidates).slice(0, count);
    return { questions, usage, degraded: questions.length === 0 };
  });
}

/**
 * Evaluation questions written from passages (paper 001 §4): every model
 * writes `per_passage` questions per passage, guided by example user
 * questions; the pool is deduplicated. A passage whose call fails or yields
 * nothing marks the result degraded; if every call fails the error is thrown.
 */
export async function generateSyntheticQueries(
  deps: Pick<Deps, "llm" | "cache">,
  input: SyntheticInput,
  signal?: AbortSignal,
): Promise<SyntheticQueries> {
  const count = input.per_passage ?? DEFAULT_PER_PASSAGE;
  const models = input.models?.length ? [...new Set(input.models)] : [deps.llm.model];
  const examples = input.examples?.length
    ? input.examples.map((example) => `- ${neutralizeTags(oneLine(example))}`).join("\n")
    : syntheticQueriesPrompt.noExamples;
  const jobs = input.passages.flatMap((passage, passage_index) =>
    models.map((model) => ({ passage, passage_index, model }))
  );
  const settled = await mapSettled(jobs, CONCURRENCY, ({ passage, model }) =>
    writeQuestions(
      { llm: { ...deps.llm, model }, cache: deps.cache },
      passage,
      examples,
      count,
      signal,
    ));
  const failures = settled.filter((outcome) => outcome.status === "rejected");
  if (failures.length > 0 && (signal?.aborted || failures.length === settled.length)) {
    throw failures[0]!.reason;
  }
  const written = settled.flatMap((outcome, i) =>
    outcome.status === "fulfilled"
      ? outcome.value.questions.map((question) => ({
        question,
        passage_index: jobs[i]!.passage_index,
        model: jobs[i]!.model,
      }))
      : []
  );
  return {
    queries: dedupeQuestions(written),
    degraded: settled.some((outcome) => outcome.status === "rejected" || outcome.value.degraded),
    usage: addUsage(
      ...settled.flatMap((outcome) => outcome.status === "fulfilled" ? [outcome.value.usage] : []),
    ),
  };
}
