import { escapeHtml } from "./escape.ts";

/** Screen coordinates are rounded to a tenth of a pixel: smaller SVG, same picture. */
export const round1 = (value: number) => Math.round(value * 10) / 10;

type Attributes = Record<string, string | number | undefined>;

/**
 * One SVG/HTML element: attribute values are escaped here, children must
 * already be markup (use `escapeHtml` for text), so nothing untrusted gets
 * in unescaped.
 *
 * @example
 * el("text", { x: 4, class: "label" }, escapeHtml(name));
 */
export function el(tag: string, attributes: Attributes, ...children: string[]): string {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join("");
  return `<${tag}${attrs}>${children.join("")}</${tag}>`;
}

export type Axis = {
  label: string;
  bounds?: [number, number];
  /** The narrowest range shown, so one point or equal points still get a readable axis. */
  minSpan: number;
  fromZero?: boolean;
};

/** Evenly spaced round ticks (1, 2 or 5 × 10^n apart) covering `[low, high]`. */
export function niceTicks(low: number, high: number, count = 5): number[] {
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => raw <= s) ?? 10 * power;
  const first = Math.floor(low / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let tick = first; tick <= high + step * 1e-6; tick += step) {
    ticks.push(Number(tick.toFixed(10)));
  }
  if (ticks.at(-1)! < high - 1e-9) ticks.push(Number((ticks.at(-1)! + step).toFixed(10)));
  return ticks;
}

/** The axis range for these values: padded, at least `minSpan` wide, inside `bounds`, on ticks. */
export function domain(
  axis: Axis,
  values: number[],
): { ticks: number[]; low: number; high: number } {
  const finite = values.filter(Number.isFinite);
  let low = finite.length ? Math.min(...finite) : 0;
  let high = finite.length ? Math.max(...finite) : axis.minSpan;
  const span = Math.max(high - low, axis.minSpan);
  const middle = (low + high) / 2;
  [low, high] = [middle - span * 0.6, middle + span * 0.6];
  // An axis from zero (speed) leaves room to the right of the fastest point for its label.
  if (axis.fromZero) [low, high] = [0, Math.max(Math.max(...finite, 0) * 1.15, axis.minSpan)];
  const [min, max] = axis.bounds ?? [-Infinity, Infinity];
  if (low < min) [low, high] = [min, Math.min(max, high + (min - low))];
  if (high > max) [low, high] = [Math.max(min, low - (high - max)), max];
  const ticks = niceTicks(low, high).filter((tick) => tick >= min - 1e-9 && tick <= max + 1e-9);
  return { ticks, low: ticks[0]!, high: ticks.at(-1)! };
}

/** A tick's text with as many decimals as the step needs. */
export function tickText(value: number, ticks: number[]): string {
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : 1;
  const digits = Math.max(0, Math.min(3, -Math.floor(Math.log10(step) + 1e-9)));
  return value.toFixed(digits);
}

/** Maps a value in `[low, high]` onto `[from, to]` pixels. */
export function scale(range: { low: number; high: number }, from: number, to: number) {
  return (value: number) =>
    round1(from + ((value - range.low) / (range.high - range.low || 1)) * (to - from));
}
