/**
 * Reading order for a PDF page's text items: items become line segments,
 * segments are ordered top to bottom, and where a page has two columns (a
 * gutter no segment crosses) each band between full-width lines is read left
 * column first, then right. Pure, so it is tested on made-up items too.
 */

/**
 * One text run as pdf.js reports it: its text, baseline origin, width and
 * font size; `rotated` when its baseline is not horizontal (a watermark).
 */
export type TextRun = {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  rotated?: boolean;
};

/** Text on one baseline with no wide gap inside it (`rotated`: set at an angle). */
export type Segment = {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
  rotated?: boolean;
};

/**
 * Rotated runs (in content order) as segments of their own, one per run of
 * consecutive ones: they stay out of the page's layout (a diagonal watermark
 * would cross the column gutter) and are read after the page's other text.
 */
export function rotatedSegments(runs: readonly TextRun[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const run of runs) {
    if (!run.rotated) {
      current = undefined;
      continue;
    }
    if (!run.text.trim()) continue;
    if (current) current.text += " " + run.text;
    else {
      current = { text: run.text, x: run.x, end: run.x, y: run.y, size: run.size, rotated: true };
      segments.push(current);
    }
  }
  for (const segment of segments) segment.text = segment.text.replace(/\s+/g, " ").trim();
  return segments;
}

/** Runs merged into segments: a new one starts on another baseline or after a column-wide gap. */
export function segmentsOf(runs: readonly TextRun[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const run of runs) {
    if (!run.text) continue;
    const size = run.size || 10;
    const sameLine = current && Math.abs(run.y - current.y) < 0.5 * Math.min(size, current.size);
    const gap = current ? run.x - current.end : 0;
    if (current && sameLine && gap > -0.5 * size && gap < 1.5 * size) {
      const space = gap > 0.15 * size && !current.text.endsWith(" ") && !run.text.startsWith(" ");
      current.text += (space ? " " : "") + run.text;
      current.end = Math.max(current.end, run.x + run.width);
      current.size = Math.max(current.size, size);
      continue;
    }
    if (!run.text.trim()) continue;
    current = { text: run.text, x: run.x, end: run.x + run.width, y: run.y, size };
    segments.push(current);
  }
  for (const segment of segments) segment.text = segment.text.replace(/\s+/g, " ").trim();
  return segments.filter((segment) => segment.text);
}

/**
 * The x of a gutter between two columns, when the page has one: the line
 * down the middle half of the page that the fewest segments cross, with
 * enough segments wholly on each side of it.
 */
export function gutterOf(segments: readonly Segment[], pageWidth: number): number | undefined {
  if (segments.length < 10) return undefined;
  const enough = Math.max(4, segments.length * 0.2);
  let best: { x: number; crossing: number } | undefined;
  for (let x = pageWidth * 0.25; x <= pageWidth * 0.75; x += 2) {
    const left = segments.filter((s) => s.end <= x).length;
    const right = segments.filter((s) => s.x >= x).length;
    if (left < enough || right < enough) continue;
    const crossing = segments.length - left - right;
    if (!best || crossing < best.crossing) best = { x, crossing };
  }
  return best && best.crossing <= segments.length * 0.15 ? best.x : undefined;
}

/** Segments top to bottom, left to right within a baseline. */
function topToBottom(segments: readonly Segment[]): Segment[] {
  return [...segments].sort((a, b) =>
    Math.abs(a.y - b.y) < 0.5 * Math.min(a.size, b.size) ? a.x - b.x : b.y - a.y
  );
}

/** The page's segments in reading order (two columns read one after the other). */
export function readingOrder(segments: readonly Segment[], pageWidth: number): Segment[] {
  const gutter = gutterOf(segments, pageWidth);
  const ordered = topToBottom(segments);
  if (gutter === undefined) return ordered;
  const result: Segment[] = [];
  let left: Segment[] = [];
  let right: Segment[] = [];
  const flush = () => {
    result.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const segment of ordered) {
    if (segment.end <= gutter) left.push(segment);
    else if (segment.x >= gutter) right.push(segment);
    else {
      // A full-width line (a masthead, a wide figure's caption) ends the band above it.
      flush();
      result.push(segment);
    }
  }
  flush();
  return result;
}

/** Segments on one baseline in one column joined into lines. */
export function linesOf(ordered: readonly Segment[]): Segment[] {
  const lines: Segment[] = [];
  for (const segment of ordered) {
    const last = lines.at(-1);
    if (
      last && Math.abs(last.y - segment.y) < 0.5 * Math.min(last.size, segment.size) &&
      segment.x >= last.end - 1 && segment.x - last.end < 3 * segment.size
    ) {
      last.text += " " + segment.text;
      last.end = segment.end;
      last.size = Math.max(last.size, segment.size);
    } else lines.push({ ...segment });
  }
  return lines;
}
