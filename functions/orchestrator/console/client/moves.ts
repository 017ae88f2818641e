/** Lines from one ranking to another: where each passage went, or that it dropped out. */
import { el } from "./dom.ts";
import type { ChunkMetadata } from "./wire.ts";

/** A passage in a ranking: its chunk id and what to call it. */
export interface Labelled {
  id: string | undefined;
  label: string | undefined;
}

/** The passages `ids` names, each called by its document's title (else its id). */
export function labelled(
  retrieved: readonly { id: string; metadata?: ChunkMetadata }[],
  ids: readonly (string | undefined)[],
): Labelled[] {
  return ids.map((id) => {
    const hit: { metadata?: ChunkMetadata } = retrieved.find((h) => h.id === id) || {};
    return { id, label: (hit.metadata && hit.metadata.title) || id };
  });
}

/** Two ranked lists side by side, and between them a line per passage of the left one. */
export function drawMoves(
  left: readonly Labelled[],
  right: readonly Labelled[],
  leftTitle: string,
  rightTitle: string,
): HTMLElement {
  const row = 24; // .moves li's height in the stylesheet
  const rows = Math.max(left.length, right.length, 1);
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("viewBox", "0 0 100 " + rows * row);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "how each passage moved from " + leftTitle + " to " + rightTitle);
  svg.style.height = rows * row + "px";
  const list = (items: readonly Labelled[], lost: (item: Labelled) => boolean) =>
    el(
      "ol",
      {},
      items.map((item, i) =>
        el("li", {
          class: lost(item) ? "dropped" : "",
          title: item.id,
          text: (i + 1) + ". " + item.label,
        })
      ),
    );
  left.forEach((item, i) => {
    const j = right.findIndex((other) => other.id === item.id);
    const line = document.createElementNS(svgNs, "line");
    line.setAttribute("x1", "0");
    line.setAttribute("y1", String((i + 0.5) * row));
    line.setAttribute("x2", j < 0 ? "40" : "100");
    line.setAttribute("y2", String(j < 0 ? (i + 0.5) * row : (j + 0.5) * row));
    if (j < 0) line.setAttribute("class", "dropped");
    line.setAttribute("data-from", String(i + 1));
    line.setAttribute("data-to", j < 0 ? "dropped" : String(j + 1));
    svg.append(line);
  });
  return el("section", { class: "part moved" }, [
    el("h3", { text: "How the passages moved: " + leftTitle + " → " + rightTitle }),
    el("div", { class: "moves" }, [
      list(left, (item) => !right.some((other) => other.id === item.id)),
      svg,
      list(right, (item) => !left.some((other) => other.id === item.id)),
    ]),
  ]);
}
