import { ConflictError } from "../../shared/errors.ts";
import { sha256Hex } from "../../shared/hash.ts";
import type { Deps } from "../../shared/deps.ts";
import type { EvalQuestion } from "./types.ts";

/** As long as the run's checkpoints and job record. */
const BINDING_TTL_SECONDS = 7 * 24 * 3600;

const bindingKey = (runId: string) => `eval:binding:${runId}`;

/**
 * What a run id is bound to: the named dataset, or the hash of the questions
 * sent inline. Checkpoints are keyed by run id and question id, so the same
 * id over other questions would hand one dataset's answers to another's.
 *
 * @example
 * await datasetBinding({ name: "smoke" }); // "name:smoke"
 */
export async function datasetBinding(
  dataset: { questions: EvalQuestion[] } | { name: string },
): Promise<string> {
  return "name" in dataset
    ? `name:${dataset.name}`
    : `questions:${await sha256Hex(JSON.stringify(dataset.questions))}`;
}

/**
 * Binds `runId` to `binding`, or throws a 409 when it is bound to another
 * dataset already. The cache store has no compare-and-set: two first
 * requests racing with different datasets can both pass, the later binding
 * winning; every later request is held to it.
 */
export async function bindRun(
  deps: Pick<Deps, "cache">,
  runId: string,
  binding: string,
): Promise<void> {
  const bound = await deps.cache.get<unknown>(bindingKey(runId));
  if (typeof bound === "string" && bound !== binding) {
    throw new ConflictError(
      `run_id: ${runId} belongs to another dataset; start this one under a new run_id`,
    );
  }
  if (bound !== binding) {
    await deps.cache.set(bindingKey(runId), binding, { ttlSeconds: BINDING_TTL_SECONDS });
  }
}
