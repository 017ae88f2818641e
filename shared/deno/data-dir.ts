import { FileIndexLog } from "./file-index-log.ts";

/**
 * The embedded index's log in a data directory (`SIFT_DATA_DIR`, `.data` by
 * default): `index.log`, taking over an older sift's `index.json` if there is one.
 */
export function indexLogIn(dataDir: string): FileIndexLog {
  return new FileIndexLog(`${dataDir}/index.log`, { legacySnapshot: `${dataDir}/index.json` });
}
