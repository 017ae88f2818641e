import type { VectorIndex } from "../../shared/vector/port.ts";
import { IndexUnavailableError } from "./errors.ts";
import { PostgresIndex } from "./index.ts";

/**
 * Makes or migrates the schema at start. Resolves to the one line that stops
 * the start (no pgvector, a schema newer than this sift), or undefined: an
 * unreachable database is only reported, since requests get 503 until it
 * answers and the schema is made then.
 *
 * @example
 * const problem = await preparePostgres(runtime.deps(config).index);
 * if (problem) { console.error(problem); Deno.exit(1); }
 */
export async function preparePostgres(index: VectorIndex): Promise<string | undefined> {
  if (!(index instanceof PostgresIndex)) return undefined;
  try {
    await index.prepare();
    return undefined;
  } catch (error) {
    if (error instanceof IndexUnavailableError) {
      console.error(`${error.message} sift starts anyway and answers 503 until it is reachable.`);
      return undefined;
    }
    return `sift cannot start: ${failedStatement(error) ?? (error as Error).message}`;
  }
}

/**
 * A statement the server refused, as the operator needs it: which one and
 * Postgres's own words (postgres.js keeps the statement's text on its
 * error), e.g. `the index (Postgres) failed "CREATE FUNCTION sift_dense":
 * permission denied to set parameter "hnsw.ef_search"`.
 */
function failedStatement(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause as
    | { query?: unknown; message?: unknown }
    | undefined;
  if (typeof cause?.query !== "string" || typeof cause.message !== "string") return undefined;
  const said = cause.message.replace(/\s+/g, " ");
  return `the index (Postgres) failed "${statementName(cause.query)}": ${said}`;
}

/** `CREATE TABLE sift_chunks (\n…` → `CREATE TABLE sift_chunks`: its first line, up to a parenthesis. */
function statementName(text: string): string {
  const head = text.trim().split("\n")[0]!.split("(")[0]!.replace(/\s+/g, " ").trim();
  return head.length > 60 ? `${head.slice(0, 59)}…` : head;
}
