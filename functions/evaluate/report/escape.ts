const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text made safe for HTML and SVG, in element content and in quoted
 * attributes alike: answers, questions and reasons are untrusted.
 *
 * @example
 * escapeHtml('<img src=x onerror="alert(1)">'); // "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/** A number for people: fixed decimals, or an em dash when there is none. */
export function formatNumber(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "—"
    : value.toFixed(digits);
}

/** A signed change, `+0.120` / `−0.050`. */
export function formatDelta(value: number, digits = 3): string {
  const text = Math.abs(value).toFixed(digits);
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : `±${text}`;
}

export function formatPercent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? "—" : `${(value * 100).toFixed(digits)}%`;
}

/** Tableau 10: distinct, colour-blind-aware hues; a variant keeps its colour in every chart. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

export function colorOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}
