/**
 * `deno task dev`: `deno task start` that restarts on file changes.
 *
 * A wrapper, because `deno run --watch` waits for a file change after the
 * program exits, so `deno task dev --help` would never return: the help is
 * answered here, then the watched server runs as a child with the same
 * permissions `deno task start` has.
 */
import { startArgs } from "../cli/serve-usage.ts";

startArgs();
const child = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "--watch",
    "--v8-flags=--max-old-space-size=1024",
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-write",
    "--allow-run",
    "main.ts",
  ],
  cwd: new URL("../", import.meta.url).pathname,
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // The watcher exits on SIGINT (Ctrl-C) and stops the server; on SIGTERM it stops only the server
  // and waits for a file change, so both become SIGINT.
  Deno.addSignalListener(signal, () => child.kill("SIGINT"));
}
Deno.exit((await child.status).code);
