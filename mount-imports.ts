import type { ImportMount } from "./app.ts";

/**
 * The modules of app.ts's mounts as literal `import()`s, for wrangler's esbuild,
 * which bundles only those (the all-in-one Worker passes `importBundledMount`).
 * Deno's entries never import this file: Deno parses every literal
 * `import()` of its module graph at start, taken or not.
 * tests/routes/lazy_mounts_test.ts checks that it lists every mount's module.
 */
export const MOUNT_IMPORTS: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {
  "./functions/embed/app.ts": () => import("./functions/embed/app.ts"),
  "./functions/fuse/app.ts": () => import("./functions/fuse/app.ts"),
  "./functions/generate-rubric/app.ts": () => import("./functions/generate-rubric/app.ts"),
  "./functions/rerank/app.ts": () => import("./functions/rerank/app.ts"),
  "./functions/judge/app.ts": () => import("./functions/judge/app.ts"),
  "./functions/judge/stats-app.ts": () => import("./functions/judge/stats-app.ts"),
  "./functions/answer/app.ts": () => import("./functions/answer/app.ts"),
  "./functions/orchestrator/app.ts": () => import("./functions/orchestrator/app.ts"),
  "./functions/orchestrator/chat/app.ts": () => import("./functions/orchestrator/chat/app.ts"),
  "./functions/orchestrator/responses/app.ts": () =>
    import("./functions/orchestrator/responses/app.ts"),
  "./functions/orchestrator/openai-files/files-app.ts": () =>
    import("./functions/orchestrator/openai-files/files-app.ts"),
  "./functions/orchestrator/openai-files/vector-stores-app.ts": () =>
    import("./functions/orchestrator/openai-files/vector-stores-app.ts"),
  "./functions/orchestrator/mcp/app.ts": () => import("./functions/orchestrator/mcp/app.ts"),
  "./functions/orchestrator/jobs/app.ts": () => import("./functions/orchestrator/jobs/app.ts"),
  "./functions/evaluate/app.ts": () => import("./functions/evaluate/app.ts"),
  "./functions/orchestrator/console/app.ts": () =>
    import("./functions/orchestrator/console/app.ts"),
};

/** `createSiftApp({ importMount: importBundledMount })` where a bundler builds the app. */
export const importBundledMount: ImportMount = async (module) => {
  const load = MOUNT_IMPORTS[module];
  if (!load) throw new Error(`mount-imports.ts does not list ${module}`);
  return await load();
};
