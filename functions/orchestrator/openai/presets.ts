/**
 * The models `/v1/chat/completions` accepts: each is a named `POST /v1/query`
 * pipeline body, parsed by the same schema, so its defaults are the route's
 * (hybrid retrieval, top 5; top 10 kept to 3 with a rerank step, every
 * survivor with ToT's). A new strategy (ITEM, ToT) is one more row.
 */
export const CHAT_PRESETS: Readonly<Record<string, { pipeline: Record<string, unknown> }>> = {
  "sift-none": { pipeline: {} },
  "sift-one-turn": { pipeline: { rerank: { strategy: "one-turn" } } },
  "sift-two-turn": { pipeline: { rerank: { strategy: "two-turn" } } },
  "sift-relevance": { pipeline: { rerank: { strategy: "relevance" } } },
  "sift-two-turn-relevance": { pipeline: { rerank: { strategy: "two-turn-relevance" } } },
  "sift-item": { pipeline: { rerank: { strategy: "item" } } },
  "sift-tot": { pipeline: { rerank: { strategy: "tot" } } },
  "sift-fusion": { pipeline: { retrieval: { fusion: 4 } } },
  "sift-fusion-two-turn": {
    pipeline: { retrieval: { fusion: 4 }, rerank: { strategy: "two-turn" } },
  },
};

/** When the presets were published, as `/v1/models` reports it (Unix seconds). */
export const PRESETS_CREATED = 1_767_225_600;

/** The preset's pipeline body, or undefined for a name that is not a preset. */
export function presetBody(model: string): Record<string, unknown> | undefined {
  // hasOwn, so "constructor" is not a model.
  return Object.hasOwn(CHAT_PRESETS, model) ? CHAT_PRESETS[model]?.pipeline : undefined;
}

/** `GET /v1/models` in OpenAI's list shape. */
export function modelList() {
  return {
    object: "list" as const,
    data: Object.keys(CHAT_PRESETS).map(modelObject),
  };
}

export function modelObject(id: string) {
  return { id, object: "model" as const, created: PRESETS_CREATED, owned_by: "sift" };
}
