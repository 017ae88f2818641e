export type LabelPlacement = { x: number; y: number; anchor: "start" | "end" };
type Box = { x1: number; y1: number; x2: number; y2: number };
type Area = { left: number; right: number; top: number; bottom: number };

/** A 12px bold label is about 7px per character wide, 13px tall. */
const CHAR_WIDTH = 7;
const POINT_RADIUS = 7;

function boxOf(place: LabelPlacement, text: string): Box {
  const width = text.length * CHAR_WIDTH;
  const [x1, x2] = place.anchor === "start"
    ? [place.x, place.x + width]
    : [place.x - width, place.x];
  return { x1, y1: place.y - 10, x2, y2: place.y + 3 };
}

const overlaps = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/**
 * Where each point's label goes: beside its point (right, left, then the
 * four diagonals) at the first spot that stays inside the chart and covers
 * neither another label nor another point; failing that, stacked below on
 * the side with room. Points are `{cx, cy}` in pixels.
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
  return points.map(({ cx, cy, label }, index) => {
    const candidates: LabelPlacement[] = [
      { x: cx + 9, y: cy + 4, anchor: "start" },
      { x: cx - 9, y: cy + 4, anchor: "end" },
      { x: cx + 6, y: cy - 10, anchor: "start" },
      { x: cx - 6, y: cy - 10, anchor: "end" },
      { x: cx + 6, y: cy + 18, anchor: "start" },
      { x: cx - 6, y: cy + 18, anchor: "end" },
    ];
    const side = cx + 9 + label.length * CHAR_WIDTH <= area.right ? "start" : "end";
    for (let step = 2; step < 2 + points.length; step++) {
      candidates.push({
        x: side === "start" ? cx + 6 : cx - 6,
        y: cy + 4 + 15 * step,
        anchor: side,
      });
    }
    const fits = (place: LabelPlacement) => {
      const box = boxOf(place, label);
      return box.x1 >= area.left && box.x2 <= area.right && box.y1 >= area.top &&
        box.y2 <= area.bottom && !taken.some((other) => overlaps(box, other)) &&
        !pointBoxes.some((other, j) => j !== index && overlaps(box, other));
    };
    const chosen = candidates.find(fits) ?? candidates.at(-1)!;
    taken.push(boxOf(chosen, label));
    return chosen;
  });
}
