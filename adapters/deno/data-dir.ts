import { FileIndexLog } from "../../lib/vector-index/deno/mod.ts";
import { KvJobBackend } from "./kv-jobs.ts";

/**
 * The embedded index's log in a data directory (`SIFT_DATA_DIR`, `.data` by
 * default): `index.log`, taking over an older sift's `index.json` if there is one.
 */
export function indexLogIn(dataDir: string): FileIndexLog {
  return new FileIndexLog(`${dataDir}/index.log`, { legacySnapshot: `${dataDir}/index.json` });
}

/**
 * Jobs and their queue in Deno KV: `jobs.sqlite` in the data directory, or
 * Deno Deploy's own KV there (where there is no data directory to write).
 */
export async function jobsIn(dataDir: string): Promise<KvJobBackend> {
  if (Deno.env.get("DENO_DEPLOYMENT_ID")) return await KvJobBackend.open();
  await Deno.mkdir(dataDir, { recursive: true });
  return await KvJobBackend.open(`${dataDir}/jobs.sqlite`);
}
