/** Where a point's label goes; `leader` joins a label set away from its point back to it. */
export type LabelPlacement = {
  x: number;
  y: number;
  anchor: "start" | "end";
  leader?: { x1: number; y1: number; x2: number; y2: number } | undefined;
};
type Box = { x1: number; y1: number; x2: number; y2: number };
type Area = { left: number; right: number; top: number; bottom: number };

/**
 * A 12px bold label in the fonts Chromium falls back to (DejaVu Sans Bold)
 * is about 7.5px per character; the chromium test measures the real boxes.
 */
const CHAR_WIDTH = 7.5;
const POINT_RADIUS = 7;
/** Clear space kept around every label box. */
const GAP = 1.5;
const LINE = 15;

function boxOf(place: LabelPlacement, text: string): Box {
  const width = text.length * CHAR_WIDTH;
  const [x1, x2] = place.anchor === "start"
    ? [place.x, place.x + width]
    : [place.x - width, place.x];
  return { x1: x1 - GAP, y1: place.y - 10 - GAP, x2: x2 + GAP, y2: place.y + 3 + GAP };
}

const overlaps = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/** Spots beside the point: right, left, then the four diagonals. */
function besides(cx: number, cy: number): LabelPlacement[] {
  return [
    { x: cx + 9, y: cy + 4, anchor: "start" },
    { x: cx - 9, y: cy + 4, anchor: "end" },
    { x: cx + 6, y: cy - 10, anchor: "start" },
    { x: cx - 6, y: cy - 10, anchor: "end" },
    { x: cx + 6, y: cy + 18, anchor: "start" },
    { x: cx - 6, y: cy + 18, anchor: "end" },
  ];
}

/** Spots a line away and further, nearest first, each with a leader line back to the point. */
function nudged(cx: number, cy: number, area: Area): LabelPlacement[] {
  const spots: LabelPlacement[] = [];
  const rows = Math.ceil((area.bottom - area.top) / LINE);
  for (let step = 1; step <= rows; step++) {
    for (const dy of [step * LINE, -step * LINE]) {
      for (const anchor of ["start", "end"] as const) {
        const x = anchor === "start" ? cx + 16 : cx - 16;
        spots.push({
          x,
          y: cy + 4 + dy,
          anchor,
          leader: { x1: cx, y1: cy, x2: anchor === "start" ? x - 2 : x + 2, y2: cy + dy },
        });
      }
    }
  }
  return spots;
}

/**
 * Where each point's label goes so that no two labels overlap, none leaves
 * the chart and none covers another point. Points are taken top to bottom;
 * each label goes beside its point (right, left, then the diagonals) at the
 * first free spot; failing that it is nudged up or down a line at a time,
 * on either side, with a leader line back to its point. Points are
 * `{cx, cy}` in pixels; the placements come back in the points' order.
 */
export function placeLabels(
  points: { cx: number; cy: number; label: string }[],
  area: Area,
): LabelPlacement[] {
  const pointBoxes = points.map(({ cx, cy }) => ({
    x1: cx - POINT_RADIUS,
    y1: cy - POINT_RADIUS,
    x2: cx + POINT_RADIUS,
    y2: cy + POINT_RADIUS,
  }));
  const taken: Box[] = [];
  const placed: LabelPlacement[] = new Array(points.length);
  const order = points.map((_, index) => index).sort((a, b) =>
    points[a]!.cy - points[b]!.cy || points[a]!.cx - points[b]!.cx
  );
  for (const index of order) {
    const { cx, cy, label } = points[index]!;
    const inside = (box: Box) =>
      box.x1 >= area.left && box.x2 <= area.right && box.y1 >= area.top &&
      box.y2 <= area.bottom && !taken.some((other) => overlaps(box, other));
    const clear = (box: Box) =>
      inside(box) && !pointBoxes.some((other, j) => j !== index && overlaps(box, other));
    const candidates = [...besides(cx, cy), ...nudged(cx, cy, area)];
    // Covering another point is better than covering a label or leaving the chart.
    const chosen = candidates.find((place) => clear(boxOf(place, label))) ??
      candidates.find((place) => inside(boxOf(place, label))) ?? candidates[0]!;
    taken.push(boxOf(chosen, label));
    placed[index] = chosen;
  }
  return placed;
}
