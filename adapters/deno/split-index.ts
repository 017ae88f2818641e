import type { Config } from "../../shared/config.ts";

/**
 * Why the all-in-one server must not start with this config, or undefined.
 * It serves `/v1/documents` itself, into its own embedded index: with its
 * searches (`STEP_URL_FUSE`) or its MCP ingest (`STEP_URL_EMBED`) sent to
 * another process, what it acknowledges is not what is searched. A shared
 * index (Postgres or Upstash Vector) makes the split harmless.
 *
 * @example
 * splitIndexMistake(readConfig({ STEP_URL_FUSE: "http://127.0.0.1:8791" })); // "sift cannot start: ..."
 */
export function splitIndexMistake(config: Config): string | undefined {
  if (config.vector || config.database) return undefined;
  const sent = (["FUSE", "EMBED"] as const).filter((name) => config.steps.urls[name]);
  if (sent.length === 0) return undefined;
  return `sift cannot start: ${sent.map((name) => `STEP_URL_${name}`).join(" and ")} ` +
    "would send index work to another process while this one keeps the documents it " +
    "acknowledges in its own index. Run `deno task serve orchestrator` with `deno task serve " +
    "index` instead (docs/deno-processes.md), or share an index through DATABASE_URL or UPSTASH_VECTOR_*.";
}
