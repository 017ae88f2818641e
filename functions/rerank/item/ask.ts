import { z } from "zod";
import {
  type ChatRequest,
  completeObject,
  completeText,
  type TokenUsage,
} from "../../../shared/llm/chat.ts";
import { correctionTurns } from "../../../core/correction.ts";
import type { LlmContext } from "../../../shared/llm/client.ts";
import type { PromptTemplate } from "../../../shared/llm/prompt.ts";

/** Every call ITEM makes and the tokens they cost, failed calls included. */
export class Ledger {
  tokens_in = 0;
  tokens_out = 0;
  llm_calls = 0;
  /** Steps asked of the model (a correction turn is the same step). */
  asked = 0;
  /** Replies that could not be read and got a correction turn. */
  unreadable = 0;
  /** Steps left with nothing read even after the correction (their state kept, degraded). */
  degraded = 0;

  add(usage: TokenUsage): void {
    this.tokens_in += usage.tokens_in;
    this.tokens_out += usage.tokens_out;
  }
}

export type StepCall = {
  prompt: Pick<PromptTemplate, "id" | "version">;
  system: string;
  user: string;
  /** The json_schema sent in structured mode; the reply is parsed by the step either way. */
  responseSchema: z.ZodType;
  schemaName: string;
};

/** What a step reads from a reply, and what the correction says when it reads nothing. */
export type StepReading<T> = {
  read: (text: string) => T | undefined;
  /** What was wrong ("I could not read a ranking…") and the step's format text. */
  problem: string;
  format: string;
};

/**
 * One ITEM step's call, read with `reading`: an unreadable reply gets one
 * correction turn (the reply, what was wrong, the format again), both
 * calls counted in the ledger. `undefined` when the call failed (after the
 * SDK's own retries) or both replies were unreadable: the step keeps its
 * previous state and the iteration degrades instead of the request
 * failing. A cancelled request still throws.
 */
export async function ask<T>(
  llm: LlmContext,
  ledger: Ledger,
  call: StepCall,
  signal: AbortSignal | undefined,
  reading: StepReading<T>,
): Promise<T | undefined> {
  ledger.asked++;
  const first = await askOnce(llm, ledger, call, signal, undefined);
  if (first === undefined) return undefined;
  const read = reading.read(first);
  if (read !== undefined) return read;
  ledger.unreadable++;
  const second = await askOnce(
    llm,
    ledger,
    call,
    signal,
    correctionTurns(first, reading.problem, reading.format),
  );
  const retried = second === undefined ? undefined : reading.read(second);
  if (retried === undefined) ledger.degraded++;
  return retried;
}

async function askOnce(
  llm: LlmContext,
  ledger: Ledger,
  call: StepCall,
  signal: AbortSignal | undefined,
  followUp: ChatRequest["followUp"],
): Promise<string | undefined> {
  ledger.llm_calls++;
  const request = { prompt: call.prompt, system: call.system, user: call.user, signal, followUp };
  try {
    const reply = llm.structuredOutputs
      ? await completeObject(llm, {
        ...request,
        schema: z.unknown(),
        responseSchema: call.responseSchema,
        schemaName: call.schemaName,
      })
      : await completeText(llm, request);
    ledger.add(reply.usage);
    return reply.text;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn(`${call.prompt.id} call failed:`, error instanceof Error ? error.message : error);
    return undefined;
  }
}
