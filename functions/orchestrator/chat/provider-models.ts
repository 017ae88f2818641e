import type { Config } from "../../../shared/config.ts";
import { CROSS_ENCODER_MODELS } from "../../../shared/rerank/cross-encoder.ts";
import { isAiBinding } from "../../../providers/workers-ai/runner.ts";
import { PRESETS_CREATED } from "../openai/presets.ts";

/** Who `/v1/models` says owns a Workers AI model. */
export const WORKERS_AI_OWNER = "cloudflare-workers-ai";

/**
 * The Workers AI models this deployment uses, as `/v1/models` lists them
 * after the presets when Workers AI is configured: the answering, judging and
 * embedding models with `LLM_PROVIDER=workers-ai`, and the cross-encoder
 * whenever Workers AI is reachable (the `AI` binding, or the REST API's
 * account and token). They name what runs; chat completions take a preset.
 */
export function workersAiModels(config: Config, env: Record<string, unknown>): string[] {
  const models: string[] = [];
  if (config.llm.provider === "workers-ai") {
    models.push(config.llm.model, config.llm.judgeModel, config.embeddings.model);
  }
  if (config.cloudflare || isAiBinding(env.AI)) models.push(...CROSS_ENCODER_MODELS);
  return [...new Set(models)];
}

export function workersAiModelObject(id: string) {
  return modelObjectOwnedBy(id, WORKERS_AI_OWNER);
}

/**
 * Every model `/v1/models` lists beyond the presets: the embedding model
 * `/v1/embeddings` answers with (what an OpenAI client looks for before it
 * embeds), then the Workers AI models in use. Read per request, from config.
 */
export function extraModels(config: Config, env: Record<string, unknown>) {
  const workersAi = workersAiModels(config, env);
  const embedding = config.embeddings.model;
  return [
    ...(workersAi.includes(embedding) ? [] : [modelObjectOwnedBy(embedding, "sift")]),
    ...workersAi.map(workersAiModelObject),
  ];
}

function modelObjectOwnedBy(id: string, owner: string) {
  return { id, object: "model" as const, created: PRESETS_CREATED, owned_by: owner };
}
