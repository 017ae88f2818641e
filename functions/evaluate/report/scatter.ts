import { escapeHtml } from "./escape.ts";
import { placeLabels } from "./labels.ts";
import { type Axis, domain, el, scale, tickText } from "./scale.ts";

export type ScatterPoint = {
  label: string;
  color: string;
  x: number;
  y: number;
  /** 95% intervals, drawn as error bars. */
  xRange?: [number, number] | undefined;
  yRange?: [number, number] | undefined;
  /** Hover text. */
  title: string;
};

export type ScatterOptions = {
  id: string;
  title: string;
  x: Axis;
  y: Axis;
  points: ScatterPoint[];
  /**
   * Joins the points no other point beats on both axes (the trade-off
   * curve) with a dashed line; `"lower-x"` when less x is better (cost).
   */
  frontier?: "higher-x" | "lower-x" | undefined;
};

const W = 560, H = 380;
const M = { left: 64, right: 24, top: 20, bottom: 52 };
/** Points on the axis' ends are drawn this far inside the frame, so their marks stay whole. */
const PAD = 14;

/**
 * The Pareto frontier: points no other point beats on both axes (higher y,
 * and higher x, or lower x with `"lower-x"`), left to right.
 *
 * @example
 * frontierOf([{ x: 1, y: 1 }, { x: 2, y: 3 }, { x: 3, y: 2 }]); // the last two
 */
export function frontierOf<T extends { x: number; y: number }>(
  points: T[],
  better: "higher-x" | "lower-x" = "higher-x",
): T[] {
  const sign = better === "higher-x" ? 1 : -1;
  const beaten = (p: T) =>
    points.some((q) =>
      q !== p && sign * q.x >= sign * p.x && q.y >= p.y && (q.x !== p.x || q.y > p.y)
    );
  return points.filter((p) => !beaten(p)).sort((a, b) => a.x - b.x);
}

function errorBar(x1: number, x2: number, y1: number, y2: number, vertical: boolean): string {
  const cap = (x: number, y: number) =>
    vertical
      ? el("line", { class: "error-cap", x1: x - 4, x2: x + 4, y1: y, y2: y })
      : el("line", { class: "error-cap", x1: x, x2: x, y1: y - 4, y2: y + 4 });
  return el("line", { class: "error-bar", x1, x2, y1, y2 }) + cap(x1, y1) + cap(x2, y2);
}

/**
 * A labelled scatter plot as inline SVG: one `<circle class="point">` per
 * variant, 95% error bars on either axis, round ticks, and optionally the
 * trade-off frontier as a dashed line. Every text is escaped.
 */
export function scatterChart(options: ScatterOptions): string {
  const xs = domain(options.x, options.points.flatMap((p) => [p.x, ...(p.xRange ?? [])]));
  const ys = domain(options.y, options.points.flatMap((p) => [p.y, ...(p.yRange ?? [])]));
  const px = scale(xs, M.left + PAD, W - M.right - PAD);
  const py = scale(ys, H - M.bottom - PAD, M.top + PAD);
  const grid = [
    ...xs.ticks.map((t) =>
      el("line", { x1: px(t), x2: px(t), y1: M.top, y2: H - M.bottom }) +
      el(
        "text",
        { class: "tick", x: px(t), y: H - M.bottom + 16, "text-anchor": "middle" },
        tickText(t, xs.ticks),
      )
    ),
    ...ys.ticks.map((t) =>
      el("line", { x1: M.left, x2: W - M.right, y1: py(t), y2: py(t) }) +
      el(
        "text",
        { class: "tick", x: M.left - 8, y: py(t) + 4, "text-anchor": "end" },
        tickText(t, ys.ticks),
      )
    ),
  ].join("");
  const labels = placeLabels(
    options.points.map((p) => ({ cx: px(p.x), cy: py(p.y), label: p.label })),
    { left: M.left + 2, right: W - 2, top: 2, bottom: H - M.bottom - 2 },
  );
  const points = options.points.map((p, index) => {
    const [cx, cy] = [px(p.x), py(p.y)];
    const bars = (p.xRange ? errorBar(px(p.xRange[0]), px(p.xRange[1]), cy, cy, false) : "") +
      (p.yRange ? errorBar(cx, cx, py(p.yRange[0]), py(p.yRange[1]), true) : "");
    const label = labels[index]!;
    return el(
      "g",
      { class: "point", "data-variant": p.label, "data-x": p.x, "data-y": p.y },
      el("title", {}, escapeHtml(p.title)),
      el("g", { stroke: p.color }, bars),
      el("circle", { class: "point", cx, cy, r: 6, fill: p.color }),
      label.leader ? el("line", { class: "leader", ...label.leader }) : "",
      el(
        "text",
        { class: "label", x: label.x, y: label.y, "text-anchor": label.anchor },
        escapeHtml(p.label),
      ),
    );
  }).join("");
  const onFrontier = options.frontier ? frontierOf(options.points, options.frontier) : [];
  const spots = [...new Set(onFrontier.map((p) => `${px(p.x)},${py(p.y)}`))];
  const variants = onFrontier.map((p) => p.label).join(" ");
  // A frontier on one spot (one variant beats all, or several coincide) has no line to draw:
  // a dashed ring marks it instead.
  const frontier = spots.length > 1
    ? el("polyline", { class: "frontier", "data-variants": variants, points: spots.join(" ") })
    : spots.length === 1
    ? el("circle", {
      class: "frontier",
      "data-variants": variants,
      cx: px(onFrontier[0]!.x),
      cy: py(onFrontier[0]!.y),
      r: 11,
    })
    : "";
  return el(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      id: options.id,
      class: "chart",
      viewBox: `0 0 ${W} ${H}`,
      width: W,
      height: H,
      role: "img",
      "aria-labelledby": `${options.id}-title`,
    },
    el("title", { id: `${options.id}-title` }, escapeHtml(options.title)),
    el("g", { class: "grid" }, grid),
    el("rect", {
      class: "frame",
      x: M.left,
      y: M.top,
      width: W - M.left - M.right,
      height: H - M.top - M.bottom,
    }),
    el("text", {
      class: "axis-label",
      x: (M.left + W - M.right) / 2,
      y: H - 12,
      "text-anchor": "middle",
    }, escapeHtml(options.x.label)),
    el("text", {
      class: "axis-label",
      transform: `translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)`,
      "text-anchor": "middle",
    }, escapeHtml(options.y.label)),
    frontier,
    el("g", { class: "points" }, points),
  );
}
