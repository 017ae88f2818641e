import { mountAnswer } from "./functions/answer/app.ts";
import { ingestDocuments } from "./functions/embed/embed.ts";
import { mountEmbed } from "./functions/embed/app.ts";
import { mountEvaluations } from "./functions/evaluate/app.ts";
import { mountFuse } from "./functions/fuse/app.ts";
import { mountGenerateRubric } from "./functions/generate-rubric/app.ts";
import { mountJudge } from "./functions/judge/app.ts";
import { mountJudgeStats } from "./functions/judge/stats-app.ts";
import { mountRerank } from "./functions/rerank/app.ts";
import { mountOrchestrator } from "./functions/orchestrator/app.ts";
import { DEMO_CORPUS } from "./shared/demo/corpus.ts";
import { createServer } from "./shared/http/server.ts";
import type { Deps } from "./shared/runtime.ts";
import { Runtime } from "./shared/runtime.ts";
import type { SnapshotStore } from "./shared/vector/snapshot.ts";
import { DEFAULT_NAMESPACE } from "./shared/vector/port.ts";

/**
 * Loads the demo corpus once, into an empty embedded index only: a user's
 * Upstash index is never written to behind their back.
 */
function demoCorpusLoader(): (deps: Deps) => Promise<void> {
  let loading: Promise<void> | undefined;
  return (deps) => {
    if (!deps.config.demoCorpus || deps.providers.index !== "offline") return Promise.resolve();
    loading ??= (async () => {
      if (await deps.index.count({ namespace: DEFAULT_NAMESPACE }) > 0) return;
      await ingestDocuments(deps, {
        documents: DEMO_CORPUS,
        namespace: DEFAULT_NAMESPACE,
        chunking: deps.config.chunking,
      });
    })().catch((error) => {
      loading = undefined; // try again on the next request
      throw error;
    });
    return loading;
  };
}

/** Every function on one app: the local server, Deno Deploy and the all-in-one worker. */
export function createSiftApp(options: { snapshot?: SnapshotStore; runtime?: Runtime } = {}) {
  return createServer({
    runtime: options.runtime ?? new Runtime(options),
    mounts: [
      mountEmbed,
      mountFuse,
      mountGenerateRubric,
      mountRerank,
      mountJudge,
      mountJudgeStats,
      mountAnswer,
      mountOrchestrator,
      mountEvaluations,
    ],
    onReady: demoCorpusLoader(),
  });
}
