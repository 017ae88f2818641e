/**
 * `deno task ingest` as a child process on a data directory, and a fresh
 * in-process app to read that directory back: the ingest e2e tests' setup.
 */
import { createSiftApp } from "../../app.ts";
import { indexLogIn } from "../../adapters/deno/data-dir.ts";
import { freePort, SERVE_PERMISSIONS } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The child's and the app's environment: no demo corpus, so the index holds only what a test ingests. */
const INGEST_ENV = { DEMO_CORPUS: "false" };

/**
 * Runs `scripts/ingest.ts <args>` on `dataDir` with no server on its port
 * (the CLI works in-process; `--bulk` writes the data directory itself).
 */
export async function runIngest(args: string[], dataDir: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...SERVE_PERMISSIONS,
      "scripts/ingest.ts",
      ...args,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", SIFT_DATA_DIR: dataDir, PORT: String(freePort()), ...INGEST_ENV },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** A fresh app on the index in `dataDir` (loaded from its files): its routes, called in-process. */
export function appOn(dataDir: string) {
  const app = createSiftApp({ log: indexLogIn(dataDir) });
  return (path: string, init: RequestInit = {}) => app.request(path, init, INGEST_ENV);
}
