import type { HistoryStore } from "../../functions/evaluate/history.ts";
import { historySchema, type RunSummary } from "../../functions/evaluate/run-summary.ts";

/**
 * Run history as a JSON file (Deno only: the CLI imports it, a Worker never
 * does). A missing file is an empty history; an unreadable one is set aside
 * as `<path>.corrupt` rather than silently overwritten.
 */
export function fileHistory(path: string): HistoryStore {
  return {
    async list(): Promise<RunSummary[]> {
      let text: string;
      try {
        text = await Deno.readTextFile(path);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        throw error;
      }
      try {
        const parsed = historySchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch { /* not JSON: set aside below */ }
      await Deno.rename(path, `${path}.corrupt`);
      return [];
    },
    async save(runs: RunSummary[]): Promise<void> {
      const directory = path.replace(/\/[^/]*$/, "") || ".";
      await Deno.mkdir(directory, { recursive: true });
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(temporary, JSON.stringify(runs, null, 2) + "\n");
      await Deno.rename(temporary, path);
    },
  };
}
