import { z } from "zod";
import type { CrossEncoded, CrossEncoder } from "../../shared/rerank/cross-encoder.ts";
import { countTokens } from "../../shared/text/tokenize.ts";
import { inModelCall } from "../../shared/tracing/gen-ai.ts";
import { unreadableReply } from "./errors.ts";
import { WORKERS_AI_PROVIDER, type WorkersAiRunner } from "./runner.ts";

/** `@cf/baai/bge-reranker-base`'s documented output: a score per context id. */
const replySchema = z.object({
  response: z.array(z.object({ id: z.number().int(), score: z.number() })),
});

/**
 * Every passage in the model's order. Ids out of range or repeated are
 * dropped; a passage the reply left out follows the scored ones, in input
 * order, below every score.
 */
export function orderOf(
  reply: z.output<typeof replySchema>,
  count: number,
): CrossEncoded["ranked"] {
  const seen = new Set<number>();
  const scored = reply.response
    .filter((entry) =>
      entry.id >= 0 && entry.id < count && !seen.has(entry.id) && seen.add(entry.id)
    )
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((entry) => ({ index: entry.id, score: entry.score }));
  const floor = scored.length ? Math.min(...scored.map((entry) => entry.score)) : 0;
  for (let index = 0; index < count; index++) {
    if (!seen.has(index)) scored.push({ index, score: floor - 1 });
  }
  return scored;
}

/**
 * Workers AI's cross-encoder as sift's `CrossEncoder`: `{query, contexts:
 * [{text}]}` in, `{response: [{id, score}]}` out, one call for all passages.
 */
export function workersAiCrossEncoder(runner: WorkersAiRunner, model: string): CrossEncoder {
  return {
    model,
    provider: WORKERS_AI_PROVIDER,
    rank: (query, texts, signal) =>
      inModelCall(
        { operation: "rerank", provider: WORKERS_AI_PROVIDER, model },
        async () => {
          const result = await runner.run(
            model,
            { query, contexts: texts.map((text) => ({ text })) },
            signal,
          );
          const reply = replySchema.safeParse(result);
          if (!reply.success) throw unreadableReply(reply.error);
          const queryTokens = countTokens(query);
          return {
            ranked: orderOf(reply.data, texts.length),
            tokensIn: texts.reduce((sum, text) => sum + queryTokens + countTokens(text), 0),
          };
        },
        (encoded) => ({ tokensIn: encoded.tokensIn, tokensOut: 0 }),
      ),
  };
}
