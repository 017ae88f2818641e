import { createServer } from "./compose/server.ts";
import { type LazyMount, lazyMount } from "./shared/http/lazy-mount.ts";
import type { Mount } from "./shared/http/app-env.ts";
import { Runtime } from "./compose/runtime.ts";
import { STEP_NAMES } from "./shared/steps/names.ts";
import type { IndexLog } from "./lib/vector-index/mod.ts";

/** The all-in-one app bundles every function, so every step can run in-process. */
export const ALL_IN_ONE_SERVES = STEP_NAMES;

/** One function's routes: the paths that reach them, the module and its mount function. */
export type MountEntry = {
  /** hono `use` patterns covering every route the mount adds (`"/x/*"` covers `/x` too). */
  paths: readonly string[];
  /** Relative to this file. */
  module: string;
  /** The module's export that adds the routes. */
  mount: string;
};

/**
 * Every function's routes, in the order they are matched, each loaded the
 * first time a request reaches one of its paths: a process that only
 * searches parses the search routes and not, say, the evaluation report.
 * tests/routes/lazy_mounts_test.ts checks that the paths cover every route.
 */
export const SIFT_MOUNTS: readonly MountEntry[] = [
  {
    paths: ["/v1/documents/*", "/v1/webhooks/documents", "/v1/embeddings"],
    module: "./functions/embed/app.ts",
    mount: "mountEmbed",
  },
  { paths: ["/v1/search", "/v1/fuse"], module: "./functions/fuse/app.ts", mount: "mountFuse" },
  {
    paths: ["/v1/rubrics"],
    module: "./functions/generate-rubric/app.ts",
    mount: "mountGenerateRubric",
  },
  {
    paths: ["/v1/rerank", "/v2/rerank"],
    module: "./functions/rerank/app.ts",
    mount: "mountRerank",
  },
  { paths: ["/v1/judge/*"], module: "./functions/judge/app.ts", mount: "mountJudge" },
  { paths: ["/v1/judge/*"], module: "./functions/judge/stats-app.ts", mount: "mountJudgeStats" },
  { paths: ["/v1/answer"], module: "./functions/answer/app.ts", mount: "mountAnswer" },
  { paths: ["/v1/query"], module: "./functions/orchestrator/app.ts", mount: "mountOrchestrator" },
  {
    paths: ["/v1/models/*", "/v1/chat/completions"],
    module: "./functions/orchestrator/chat/app.ts",
    mount: "mountChat",
  },
  {
    paths: ["/v1/responses"],
    module: "./functions/orchestrator/responses/app.ts",
    mount: "mountResponses",
  },
  {
    paths: ["/v1/files/*"],
    module: "./functions/orchestrator/openai-files/files-app.ts",
    mount: "mountFiles",
  },
  {
    paths: ["/v1/vector_stores/*"],
    module: "./functions/orchestrator/openai-files/vector-stores-app.ts",
    mount: "mountVectorStores",
  },
  { paths: ["/mcp/*"], module: "./functions/orchestrator/mcp/app.ts", mount: "mountMcp" },
  { paths: ["/v1/jobs/*"], module: "./functions/orchestrator/jobs/app.ts", mount: "mountJobs" },
  {
    paths: ["/v1/evaluations/*"],
    module: "./functions/evaluate/app.ts",
    mount: "mountEvaluations",
  },
];

/** Routes open even with `API_KEYS`, before the key check (the console page). */
export const SIFT_OPEN_MOUNTS: readonly MountEntry[] = [
  { paths: ["/"], module: "./functions/orchestrator/console/app.ts", mount: "mountConsole" },
];

/** Loads one of the modules above by its `module` string. */
export type ImportMount = (module: string) => Promise<Record<string, unknown>>;

/**
 * Deno's loader. The specifier is not a string literal on purpose: Deno reads
 * and parses every literal `import("...")` of the module graph when the
 * process starts, taken or not (then a lazy mount would cost more than an
 * eager one); a computed one is read when called. Bundlers need literals:
 * the Worker passes `importBundledMount` (mount-imports.ts) instead.
 */
const importFromHere: ImportMount = (module) => import(new URL(module, import.meta.url).href);

function lazyMounts(entries: readonly MountEntry[], importMount: ImportMount): LazyMount[] {
  return entries.map((entry) =>
    lazyMount(entry.paths, async () => {
      const mount = (await importMount(entry.module))[entry.mount];
      if (typeof mount !== "function") throw new Error(`${entry.module} has no ${entry.mount}`);
      return mount as Mount;
    })
  );
}

/**
 * Every function on one app: the local server, Deno Deploy and the
 * all-in-one Worker. Steps run in-process unless a binding or `STEP_URL_*`
 * sends them elsewhere.
 */
export function createSiftApp(
  options: { log?: IndexLog; runtime?: Runtime; importMount?: ImportMount } = {},
) {
  const importMount = options.importMount ?? importFromHere;
  return createServer({
    runtime: options.runtime ?? new Runtime(options),
    mounts: lazyMounts(SIFT_MOUNTS, importMount),
    open: lazyMounts(SIFT_OPEN_MOUNTS, importMount),
    serves: ALL_IN_ONE_SERVES,
    demoCorpus: true,
  });
}
