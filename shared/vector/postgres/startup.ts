import type { VectorIndex } from "../port.ts";
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
    return `sift cannot start: ${(error as Error).message}`;
  }
}
