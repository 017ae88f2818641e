/** The views' tabs: a click, or the arrow keys, shows one panel and hides the others. */
import { must } from "./dom.ts";

export function setUpTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLElement>("[role=tab]")];
  function show(tab: HTMLElement): void {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = other.getAttribute("aria-controls") ?? "";
      must(document.getElementById(panel), "#" + panel).hidden = !selected;
    }
  }
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => show(tab));
    tab.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = must(tabs[(index + step + tabs.length) % tabs.length], "tab");
      show(next);
      next.focus();
    });
  });
}
