/**
 * Progress of a long run of files, for people: on a terminal one line that
 * updates in place (count, files per second, time left); piped, plain lines
 * a log or a test can read (no `\r`, no escape codes).
 */

/** How far a run is: files done of all, and the time since it started. */
export type Progress = { done: number; total: number; elapsedMs: number; skipped: number };

/** `1 h 02 min`, `3 min 05 s`, `42 s`: a time left, rounded to what a person reads. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Files per second so far, or undefined before the first file or the first millisecond. */
export function filesPerSecond({ done, elapsedMs }: Progress): number | undefined {
  return done > 0 && elapsedMs > 0 ? done / (elapsedMs / 1000) : undefined;
}

/**
 * The one status line: `312/1000 files (31%) · 41.2 files/s · 17 s left · 2 skipped`.
 *
 * @example
 * progressLine({ done: 50, total: 200, elapsedMs: 10_000, skipped: 0 });
 * // "50/200 files (25%) · 5.0 files/s · 30 s left"
 */
export function progressLine(progress: Progress): string {
  const { done, total, skipped } = progress;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  const rate = filesPerSecond(progress);
  const parts = [`${done}/${total} files (${percent}%)`];
  if (rate !== undefined) {
    parts.push(`${rate.toFixed(1)} files/s`);
    parts.push(done < total ? `${formatDuration((total - done) / rate)} left` : "done");
  }
  if (skipped > 0) parts.push(`${skipped} skipped`);
  return parts.join(" · ");
}

/** Writes progress to a terminal (one line, redrawn) or a pipe (a line per file). */
export type ProgressReporter = {
  /** One file finished: `line` is its own report (`path: ingested, 3 chunks`). */
  file(line: string, outcome: "ok" | "skipped"): void;
  /** The run is over: clears the terminal's status line. */
  end(): void;
};

/**
 * On a terminal (`tty`), ingested files only move the status line and a
 * skipped one is printed above it, so a thousand files are one line and the
 * reasons stay readable; piped, each file is a numbered line as it finishes.
 */
export function progressReporter(options: {
  total: number;
  tty: boolean;
  write: (text: string) => void;
  now?: () => number;
}): ProgressReporter {
  const { total, tty, write, now = () => performance.now() } = options;
  const started = now();
  let done = 0;
  let skipped = 0;
  // `\r` back to the line's start, `\x1b[K` clears what a longer line left.
  const status = () =>
    write(`\r${progressLine({ done, total, skipped, elapsedMs: now() - started })}\x1b[K`);
  if (tty && total > 0) status();
  return {
    file(line, outcome) {
      done++;
      if (outcome === "skipped") skipped++;
      if (!tty) return write(`  [${done}/${total}] ${line}\n`);
      if (outcome === "skipped") write(`\r\x1b[K  ${line}\n`);
      status();
    },
    end() {
      if (tty && total > 0) write("\n");
    },
  };
}
