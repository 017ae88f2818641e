import type { SnapshotStore } from "../vector/snapshot.ts";

/**
 * The local index's snapshot as a file (Deno only: imported by `main.ts`,
 * never by a Worker). Writes go to a temporary file renamed over the old
 * one, so a crash mid-write never leaves a torn snapshot.
 */
export class FileSnapshotStore implements SnapshotStore {
  readonly location: string;

  constructor(path: string) {
    this.location = path;
  }

  async load(): Promise<string | undefined> {
    try {
      return await Deno.readTextFile(this.location);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  async save(text: string): Promise<void> {
    const directory = this.location.replace(/\/[^/]*$/, "") || ".";
    await Deno.mkdir(directory, { recursive: true });
    const temporary = `${this.location}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(temporary, text);
    await Deno.rename(temporary, this.location);
  }
}
