import { escapeHtml } from "./escape.ts";
import { domain, el, scale, tickText } from "./scale.ts";

export type IntervalRow = {
  label: string;
  color: string;
  value: number;
  low: number;
  high: number;
  title: string;
};

/** A forest plot: one row per agent, its interval as a bar and its value as a dot. */
export function intervalChart(
  options: { id: string; title: string; xLabel: string; rows: IntervalRow[] },
): string {
  const rowHeight = 30, left = 150, right = 24, top = 12, width = 560;
  const bottom = top + options.rows.length * rowHeight;
  const height = bottom + 44;
  const xs = domain(
    { label: options.xLabel, minSpan: 40 },
    options.rows.flatMap((row) => [row.low, row.high, row.value]),
  );
  const px = scale(xs, left, width - right);
  const grid = xs.ticks.map((t) =>
    el("line", { x1: px(t), x2: px(t), y1: top, y2: bottom }) +
    el(
      "text",
      { class: "tick", x: px(t), y: bottom + 16, "text-anchor": "middle" },
      tickText(t, xs.ticks),
    )
  ).join("");
  const rows = options.rows.map((row, index) => {
    const y = top + index * rowHeight + rowHeight / 2;
    return el(
      "g",
      { class: "interval", "data-variant": row.label },
      el("title", {}, escapeHtml(row.title)),
      el(
        "text",
        { class: "label", x: left - 10, y: y + 4, "text-anchor": "end" },
        escapeHtml(row.label),
      ),
      el("line", {
        class: "error-bar",
        stroke: row.color,
        x1: px(row.low),
        x2: px(row.high),
        y1: y,
        y2: y,
      }),
      el("circle", { class: "point", cx: px(row.value), cy: y, r: 6, fill: row.color }),
    );
  }).join("");
  return el(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      id: options.id,
      class: "chart",
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-labelledby": `${options.id}-title`,
    },
    el("title", { id: `${options.id}-title` }, escapeHtml(options.title)),
    el("g", { class: "grid" }, grid),
    el("text", {
      class: "axis-label",
      x: (left + width - right) / 2,
      y: height - 8,
      "text-anchor": "middle",
    }, escapeHtml(options.xLabel)),
    rows,
  );
}
