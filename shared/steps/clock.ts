import type { TokenUsage } from "../llm/chat.ts";
import type { Via } from "./names.ts";
import type { CostUsd } from "../cost/cost.ts";

/** A step's tokens, and its cost when the step priced itself (a model other than the LLM's). */
export type StepUsage = TokenUsage & { cost_usd?: CostUsd | undefined };

export type StepRecord = {
  name: string;
  /** Milliseconds from the request's start. */
  started_ms: number;
  ended_ms: number;
  tokens_in: number;
  tokens_out: number;
  /** How the step was reached: bundled in this app, a service binding, or HTTP. */
  via: Via;
  /** USD; set when the step reports it, else priced from its tokens when usage is sent. */
  cost_usd?: CostUsd;
};

function costField(usage: StepUsage | undefined): { cost_usd?: CostUsd } {
  return usage?.cost_usd !== undefined ? { cost_usd: usage.cost_usd } : {};
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Times pipeline steps against the request's start, so overlapping steps
 * show as overlapping intervals in the `usage` event.
 */
export class StepClock {
  readonly steps: StepRecord[] = [];
  readonly #origin: number;

  constructor(origin = performance.now()) {
    this.#origin = origin;
  }

  elapsed(): number {
    return round(performance.now() - this.#origin);
  }

  /** Runs one step and records it, with the tokens its result reports. */
  async run<T>(
    name: string,
    via: Via,
    work: () => Promise<T>,
    usageOf?: (result: T) => StepUsage,
  ): Promise<T> {
    const started = this.elapsed();
    const result = await work();
    const usage = usageOf?.(result);
    this.steps.push({
      name,
      started_ms: started,
      ended_ms: this.elapsed(),
      tokens_in: usage?.tokens_in ?? 0,
      tokens_out: usage?.tokens_out ?? 0,
      via,
      ...costField(usage),
    });
    return result;
  }

  /** Records a step whose work was timed elsewhere (a stream, say). */
  record(name: string, via: Via, startedMs: number, usage: StepUsage): void {
    this.steps.push({
      name,
      started_ms: startedMs,
      ended_ms: this.elapsed(),
      tokens_in: usage.tokens_in,
      tokens_out: usage.tokens_out,
      via,
      ...costField(usage),
    });
  }
}
