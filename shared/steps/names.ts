/**
 * The functions a composition can call as steps. Each name is the Workers
 * service binding that reaches the function (`env.RERANK`) and the suffix of
 * the variable that holds its base URL (`STEP_URL_RERANK`).
 */
export const STEP_NAMES = [
  "EMBED",
  "FUSE",
  "GENERATE_RUBRIC",
  "RERANK",
  "ANSWER",
  "JUDGE",
  "ORCHESTRATOR",
  "EVALUATE",
] as const;

export type StepName = typeof STEP_NAMES[number];

/** How a step was reached, as every `usage.steps[]` entry reports it. */
export type Via = "in-process" | "binding" | "http";
