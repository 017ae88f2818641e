import { pipelineSchema } from "../../../shared/pipeline.ts";
import { modelNotFound } from "./errors.ts";
import { CHAT_PRESETS, presetBody } from "./presets.ts";

/**
 * The `/v1/query` pipeline an OpenAI-shaped request names: its `model`'s
 * preset, in its `namespace`, under its `filter`. An unknown model is
 * OpenAI's 404 `model_not_found`, listing the presets.
 */
export function presetPipeline(
  body: { model: string; namespace?: string | undefined; filter?: unknown },
) {
  const preset = presetBody(body.model);
  if (!preset) throw modelNotFound(body.model, Object.keys(CHAT_PRESETS));
  return pipelineSchema.parse({
    ...preset,
    namespace: body.namespace,
    ...(body.filter ? { filter: body.filter } : {}),
  });
}
