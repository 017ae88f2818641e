import type { EvalProgress } from "./types.ts";

export type ProgressOptions = {
  write: (text: string) => void;
  /** A terminal: redraw one line with `\r`; otherwise a line per 10%. */
  isTTY: boolean;
  width?: number;
  now?: () => number;
};

function bar(fraction: number, width: number): string {
  const filled = Math.round(fraction * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}

function seconds(ms: number): string {
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)}s`
    : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}

/** One progress line: bar, percent, units, phase, reuse and failures, time spent and left. */
export function progressLine(progress: EvalProgress, elapsedMs: number, width = 28): string {
  const fraction = progress.total ? progress.done / progress.total : 1;
  const percent = `${Math.floor(fraction * 100)}`.padStart(3);
  const computed = progress.done - progress.reused;
  const eta = computed > 0 && fraction < 1 && progress.done > progress.reused
    ? ` · ~${seconds((elapsedMs / computed) * (progress.total - progress.done))} left`
    : "";
  const extras = [
    progress.reused ? `${progress.reused} from checkpoints` : "",
    progress.failed ? `${progress.failed} failed` : "",
  ].filter(Boolean).join(", ");
  return `eval ${
    bar(fraction, width)
  } ${percent}% ${progress.done}/${progress.total} ${progress.phase}` +
    `${extras ? ` (${extras})` : ""} · ${seconds(elapsedMs)}${eta}`;
}

/**
 * A progress bar for `runEvaluation`'s `onProgress`. On a terminal it
 * redraws one line (at most every 50 ms, and always at 100%); in a log it
 * writes a line each time another tenth is done, so CI output stays short.
 *
 * @example
 * const progress = progressBar({ write: (s) => Deno.stderr.writeSync(encode(s)), isTTY: true });
 * await runEvaluation(deps, input, { onProgress: progress.update });
 * progress.finish();
 */
export function progressBar(options: ProgressOptions) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let lastDraw = -Infinity;
  let lastTenth = 0;
  let drawn = false;
  return {
    update(progress: EvalProgress): void {
      const elapsed = now() - started;
      const complete = progress.done >= progress.total;
      if (options.isTTY) {
        if (!complete && now() - lastDraw < 50) return;
        lastDraw = now();
        options.write(`\r\x1b[2K${progressLine(progress, elapsed, options.width)}`);
        drawn = true;
        return;
      }
      const tenth = progress.total ? Math.floor((progress.done / progress.total) * 10) : 10;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        options.write(`${progressLine(progress, elapsed, options.width)}\n`);
      }
    },
    /** Ends the redrawn line so what follows starts on its own. */
    finish(): void {
      if (options.isTTY && drawn) options.write("\n");
      drawn = false;
    },
  };
}
