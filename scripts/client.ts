import { CliError } from "../cli/cli.ts";

/** A computed specifier: Deno parses a literal `import()` at start, taken or not. */
async function importLater<Module>(path: string): Promise<Module> {
  return await import(new URL(path, import.meta.url).href) as Module;
}

export type SiftFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Talks to a running sift (`SIFT_URL`, default http://127.0.0.1:8787), or,
 * when none answers there and `SIFT_URL` is unset, to the same app run
 * in-process over the same `.data/` index log, so the terminal commands work
 * with or without `deno task start` running.
 */
export async function connect(): Promise<{ fetch: SiftFetch; where: string }> {
  const explicit = Deno.env.get("SIFT_URL");
  const base = (explicit ?? `http://127.0.0.1:${Deno.env.get("PORT") ?? "8787"}`).replace(
    /\/$/,
    "",
  );
  const headers: Record<string, string> = {};
  const key = Deno.env.get("SIFT_API_KEY");
  if (key) headers.authorization = `Bearer ${key}`;
  try {
    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1500) });
    await health.body?.cancel();
    return {
      fetch: (path, init = {}) =>
        fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } }),
      where: base,
    };
  } catch (error) {
    if (explicit) {
      throw new CliError(
        `no sift answers at ${base} (${(error as Error).message.split(":")[0]}): start one, ` +
          "or unset SIFT_URL to work in-process",
      );
    }
  }
  const dataDir = Deno.env.get("SIFT_DATA_DIR") ?? ".data";
  // Loaded only here: a command that talks to a server does not parse the app (see app.ts's
  // note on computed specifiers).
  const [{ createSiftApp }, { indexLogIn }] = await Promise.all([
    importLater<typeof import("../app.ts")>("../app.ts"),
    importLater<typeof import("../adapters/deno/data-dir.ts")>("../adapters/deno/data-dir.ts"),
  ]);
  const app = createSiftApp({ log: indexLogIn(dataDir) });
  const env = Deno.env.toObject();
  return {
    fetch: async (path, init) =>
      await app.fetch(new Request(`http://in-process${path}`, init), env),
    where: "in-process (no server running)",
  };
}

export { readServerSentEvents as readEvents } from "../shared/http/event-reader.ts";
