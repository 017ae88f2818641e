import { mountAnswer } from "./functions/answer/app.ts";
import { mountEmbed } from "./functions/embed/app.ts";
import { mountEvaluations } from "./functions/evaluate/app.ts";
import { mountFuse } from "./functions/fuse/app.ts";
import { mountGenerateRubric } from "./functions/generate-rubric/app.ts";
import { mountJudge } from "./functions/judge/app.ts";
import { mountJudgeStats } from "./functions/judge/stats-app.ts";
import { mountChat } from "./functions/orchestrator/chat/app.ts";
import { mountOrchestrator } from "./functions/orchestrator/app.ts";
import { mountMcp } from "./functions/orchestrator/mcp/app.ts";
import { mountConsole } from "./functions/orchestrator/console/app.ts";
import { mountJobs } from "./functions/orchestrator/jobs/app.ts";
import { mountRerank } from "./functions/rerank/app.ts";
import { mountResponses } from "./functions/orchestrator/responses/app.ts";
import { mountFiles } from "./functions/orchestrator/openai-files/files-app.ts";
import { mountVectorStores } from "./functions/orchestrator/openai-files/vector-stores-app.ts";
import { createServer } from "./shared/http/server.ts";
import { Runtime } from "./shared/runtime.ts";
import { STEP_NAMES } from "./shared/steps/names.ts";
import type { IndexLog } from "./lib/vector-index/log.ts";

/** The all-in-one app bundles every function, so every step can run in-process. */
export const ALL_IN_ONE_SERVES = STEP_NAMES;

/**
 * Every function on one app: the local server, Deno Deploy and the
 * all-in-one Worker. Steps run in-process unless a binding or `STEP_URL_*`
 * sends them elsewhere.
 */
export function createSiftApp(options: { log?: IndexLog; runtime?: Runtime } = {}) {
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
      mountChat,
      mountResponses,
      mountFiles,
      mountVectorStores,
      mountMcp,
      mountJobs,
      mountEvaluations,
    ],
    open: [mountConsole],
    serves: ALL_IN_ONE_SERVES,
    demoCorpus: true,
  });
}
