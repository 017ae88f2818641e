/**
 * Workers AI reached two ways with one interface: the `AI` binding on Workers
 * (no key) and Cloudflare's REST API anywhere else. Both take a model name
 * and its documented inputs and give back the model's documented output
 * (the REST API's `{result}` envelope already opened).
 */
export type WorkersAiRunner = {
  /** `binding` or `rest`, for `/healthz` and spans. */
  via: "binding" | "rest";
  run(model: string, inputs: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
};

/** The `AI` binding's shape as sift uses it (`env.AI.run(model, inputs, options)`). */
export type AiBinding = {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<
    unknown
  >;
};

export function isAiBinding(value: unknown): value is AiBinding {
  return typeof value === "object" && value !== null &&
    typeof (value as Partial<AiBinding>).run === "function";
}

/** `gen_ai.provider.name` for Workers AI's calls. */
export const WORKERS_AI_PROVIDER = "cloudflare.workers_ai";
