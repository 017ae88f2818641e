import { toWorkersAiError } from "./errors.ts";
import type { AiBinding, WorkersAiRunner } from "./runner.ts";

/**
 * Workers AI through the `AI` binding (`[ai] binding = "AI"` in
 * wrangler.toml): no key, the platform authenticates the Worker. `options`
 * (AI Gateway's `{gateway: {id, skipCache, cacheTtl, metadata}}`) goes along
 * on every call. The binding throws on failure; that becomes sift's error.
 */
export function bindingRunner(
  ai: AiBinding,
  options: () => Record<string, unknown> | undefined = () => undefined,
): WorkersAiRunner {
  return {
    via: "binding",
    async run(model, inputs, signal) {
      signal?.throwIfAborted();
      try {
        const extra = options();
        return await (extra ? ai.run(model, inputs, extra) : ai.run(model, inputs));
      } catch (error) {
        throw toWorkersAiError(error, signal);
      }
    },
  };
}
