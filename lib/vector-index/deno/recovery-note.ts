import { z } from "zod";
import { IndexDamagedError } from "../errors.ts";
import type { RecoveredTail } from "../log.ts";
import { writeAll } from "./write-all.ts";

const noteSchema = z.object({
  cuts: z.array(z.object({
    file: z.string(),
    offset: z.number().int().nonnegative(),
    dropped_records: z.number().int().nonnegative(),
    dropped_bytes: z.number().int().nonnegative(),
    at: z.string(),
  })),
});

/**
 * `index.recovered.json` beside the logs: the tails loads cut and nobody has
 * acknowledged yet. Written before the cut it records (a crash between the
 * two only counts that cut twice), replaced whole (temporary file, fsync,
 * rename), and removed by the acknowledgement alone.
 */
export class RecoveryNote {
  constructor(readonly path: string) {}

  /** The cuts the note holds, oldest first; none when there is no note. */
  async read(): Promise<RecoveredTail[]> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    const parsed = noteSchema.safeParse(jsonOrUndefined(text));
    // sift writes it whole or not at all: anything else was changed by hand, and is not guessed at.
    if (!parsed.success) {
      throw new IndexDamagedError({
        file: this.path,
        offset: 0,
        why: "the note of log records cut at earlier starts is not what sift writes",
      });
    }
    return parsed.data.cuts;
  }

  /** Replaces the note with `cuts`, durably. */
  async write(cuts: readonly RecoveredTail[]): Promise<void> {
    const temporary = `${this.path}.${crypto.randomUUID()}.tmp`;
    const bytes = new TextEncoder().encode(`${JSON.stringify({ cuts }, null, 2)}\n`);
    const file = await Deno.open(temporary, { create: true, write: true, truncate: true });
    try {
      await writeAll(file, bytes);
      await file.syncData();
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    } finally {
      file.close();
    }
    await Deno.rename(temporary, this.path);
  }

  /** Removes the note; resolves to the cuts it held. */
  async remove(): Promise<RecoveredTail[]> {
    const cuts = await this.read();
    await Deno.remove(this.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return cuts;
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
