import { fromPostgresClient } from "../postgres/errors.ts";

/**
 * Keeps a serving process alive past an error the postgres.js client raised
 * where nobody awaits it (a rejection no one handles, or a throw from one of
 * its timers: porsager/postgres#1208 ended the process that way). Each is
 * logged as one line and the server serves on; the request it belonged to
 * has had its answer already. Any other stray error is sift's own bug and
 * takes Deno's default path (its stack printed, the process ended), so tests
 * and e2e runs still see it. For the Deno entries (`main.ts`, `scripts/serve.ts`).
 *
 * @example
 * keepServingPastClientErrors();
 */
export function keepServingPastClientErrors(log: (line: string) => void = console.error): void {
  const handle = (event: Event, error: unknown, what: string) => {
    if (!fromPostgresClient(error)) return;
    event.preventDefault();
    log(`sift: ${what} from the Postgres client, kept serving: ${oneLine(error as Error)}`);
  };
  globalThis.addEventListener("unhandledrejection", (event) => {
    handle(event, event.reason, "an unhandled rejection");
  });
  globalThis.addEventListener("error", (event) => {
    handle(event, event.error, "an uncaught error");
  });
}

/** `TypeError: message (code) at frame`, on one line. */
function oneLine(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const frame = (error.stack ?? "").split("\n").find((line) => /^\s+at /.test(line))?.trim();
  return `${error.name}: ${error.message.split("\n")[0]}` +
    (typeof code === "string" ? ` (${code})` : "") + (frame ? ` ${frame}` : "");
}
