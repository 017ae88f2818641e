import { createSiftApp } from "../app.ts";
import { FileSnapshotStore } from "../shared/deno/file-snapshot.ts";

export type SiftFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * Talks to a running sift (`SIFT_URL`, default http://127.0.0.1:8787), or,
 * when none answers there and `SIFT_URL` is unset, to the same app run
 * in-process over the same `.data/` snapshot, so the terminal commands work
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
    if (explicit) throw new Error(`No sift answers at ${base}: ${(error as Error).message}`);
  }
  const dataDir = Deno.env.get("SIFT_DATA_DIR") ?? ".data";
  const app = createSiftApp({ snapshot: new FileSnapshotStore(`${dataDir}/index.json`) });
  const env = Deno.env.toObject();
  return {
    fetch: async (path, init) =>
      await app.fetch(new Request(`http://in-process${path}`, init), env),
    where: "in-process (no server running)",
  };
}

/** Reads `event:`/`data:` pairs from an event stream as they arrive. */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; data: unknown }> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let boundary;
    while ((boundary = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      const text = data.join("\n");
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch { /* keep the raw text */ }
      yield { event, data: parsed };
    }
  }
}
