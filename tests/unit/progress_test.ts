/** Folder ingest's progress: one redrawn line on a terminal, plain numbered lines in a pipe. */
import assert from "node:assert/strict";
import { formatDuration, progressLine, progressReporter } from "../../scripts/progress.ts";

Deno.test("progressLine() shows the count, files per second and the time left", () => {
  assert.equal(
    progressLine({ done: 50, total: 200, elapsedMs: 10_000, skipped: 0 }),
    "50/200 files (25%) · 5.0 files/s · 30 s left",
  );
  assert.equal(
    progressLine({ done: 312, total: 1000, elapsedMs: 7_800, skipped: 2 }),
    "312/1000 files (31%) · 40.0 files/s · 17 s left · 2 skipped",
  );
  assert.equal(progressLine({ done: 0, total: 10, elapsedMs: 0, skipped: 0 }), "0/10 files (0%)");
  assert.equal(
    progressLine({ done: 10, total: 10, elapsedMs: 2_000, skipped: 0 }),
    "10/10 files (100%) · 5.0 files/s · done",
  );
});

Deno.test("formatDuration() rounds to seconds, minutes or hours", () => {
  assert.equal(formatDuration(42.4), "42 s");
  assert.equal(formatDuration(185), "3 min 05 s");
  assert.equal(formatDuration(3720), "1 h 02 min");
  assert.equal(formatDuration(-1), "0 s");
});

/** A reporter over a fake clock that advances a second per file. */
function run(tty: boolean, outcomes: ("ok" | "skipped")[]) {
  let text = "";
  let clock = 0;
  const progress = progressReporter({
    total: outcomes.length,
    tty,
    write: (chunk) => void (text += chunk),
    now: () => clock,
  });
  outcomes.forEach((outcome, i) => {
    clock += 1000;
    progress.file(
      `f${i}.md: ${outcome === "ok" ? "ingested, 1 chunks" : "skipped (why)"}`,
      outcome,
    );
  });
  progress.end();
  return text;
}

Deno.test("on a terminal, ingest redraws one status line and prints only skipped files", () => {
  const text = run(true, ["ok", "skipped", "ok", "ok"]);
  const lines = text.split("\n");
  // One finished status line, one line for the skipped file, nothing per ingested file.
  assert.equal(lines.filter(Boolean).length, 2, JSON.stringify(text));
  assert.ok(text.includes("\r\x1b[K  f1.md: skipped (why)\n"), JSON.stringify(text));
  assert.doesNotMatch(text, /f0\.md/);
  const last = text.slice(text.lastIndexOf("\r") + 1);
  assert.equal(last, "4/4 files (100%) · 1.0 files/s · done · 1 skipped\x1b[K\n");
  assert.match(text, /\r2\/4 files \(50%\) · 1\.0 files\/s · 2 s left · 1 skipped/);
});

Deno.test("piped, ingest writes a numbered plain line per file: no \\r, no escape codes", () => {
  const text = run(false, ["ok", "skipped", "ok"]);
  assert.equal(
    text,
    "  [1/3] f0.md: ingested, 1 chunks\n  [2/3] f1.md: skipped (why)\n  [3/3] f2.md: ingested, 1 chunks\n",
  );
});
