import type { CacheStore } from "../../shared/cache/port.ts";

const CHECKPOINT_PREFIX = "eval:checkpoint:";

/**
 * A cache store that also keeps evaluation checkpoints in a `.jsonl` file
 * (Deno only, for the CLI): the embedded cache lives in memory, and a run
 * interrupted with Ctrl-C must still resume. Each checkpoint is one appended
 * line; a torn last line (a crash mid-write) is skipped on load. Other keys
 * go to `inner` as usual.
 */
export async function fileCheckpointStore(path: string, inner: CacheStore): Promise<CacheStore> {
  const saved = new Map<string, unknown>();
  // After a torn last line the next append must start on a line of its own.
  let separator = "";
  try {
    const text = await Deno.readTextFile(path);
    if (text && !text.endsWith("\n")) separator = "\n";
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const entry: unknown = JSON.parse(line);
        if (
          entry && typeof entry === "object" && "key" in entry && typeof entry.key === "string" &&
          "value" in entry
        ) saved.set(entry.key, entry.value);
      } catch { /* a torn line: that unit is simply done again */ }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  let writes = Promise.resolve();
  return {
    name: inner.name,
    get<T>(key: string): Promise<T | undefined> {
      if (saved.has(key)) return Promise.resolve(structuredClone(saved.get(key)) as T);
      return inner.get<T>(key);
    },
    set<T>(key: string, value: T, options?: { ttlSeconds?: number }): Promise<void> {
      if (!key.startsWith(CHECKPOINT_PREFIX)) return inner.set(key, value, options);
      saved.set(key, structuredClone(value));
      // Appends one after another, so concurrent units never interleave a line.
      const line = `${separator}${JSON.stringify({ key, value })}\n`;
      separator = "";
      writes = writes.then(() => Deno.writeTextFile(path, line, { append: true }));
      return writes;
    },
    delete(key: string): Promise<void> {
      saved.delete(key);
      return inner.delete(key);
    },
  };
}
