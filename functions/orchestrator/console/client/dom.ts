/** Small DOM helpers: finding nodes, making them, reading forms, formatting numbers. */
import type { ChunkMetadata } from "./wire.ts";

/** `value`, or an error naming what was missing (the page's markup is page.ts's). */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`the console has no ${what}`);
  return value;
}

/** The first node matching `selector` in `root` (the document by default); it must exist. */
export function $<T extends Element = HTMLElement>(selector: string, root?: ParentNode): T {
  return must((root || document).querySelector<T>(selector), selector);
}

/** An attribute's value: absent when undefined, null or false; `true` is an empty one. */
export type AttributeValue = string | number | boolean | null | undefined;
/** A child: a node, some text, or nothing. */
export type Child = Node | string | null | undefined;

/** An element with attributes (`text` sets its text, `class` its class) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, AttributeValue>,
  children?: readonly Child[],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.className = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children || []) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** A number with at most `digits` decimals, without trailing zeros. */
export const fmt = (value: number, digits = 3): string => Number(value.toFixed(digits)).toString();

/** Where a passage sits in its document: ", § Training, p. 6" (the answer's citations carry a full label). */
export function placeOf(metadata: ChunkMetadata | undefined): string {
  if (!metadata) return "";
  const parts = [];
  if (metadata.section) parts.push("§ " + String(metadata.section).split(" > ").pop());
  if (metadata.page) {
    parts.push(
      metadata.page_end && metadata.page_end !== metadata.page
        ? "pp. " + metadata.page + "-" + metadata.page_end
        : "p. " + metadata.page,
    );
  }
  return parts.length ? ", " + parts.join(", ") : "";
}

/** A failure to show in place of a result. */
export const failure = (text: string): HTMLParagraphElement =>
  el("p", { class: "error", role: "alert", text });

/** An error's message, for a line that says what failed. */
export const messageOf = (error: unknown): string => String((error as Error).message);

/** Disables a form's buttons while it works, and enables them again. */
export function busy(form: HTMLFormElement, on: boolean): void {
  for (const button of form.querySelectorAll("button")) button.disabled = on;
}

/** A form's field that holds a value: an input, a select or a text area. */
export type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The field called `name` in `form`; it must exist. */
export function field(form: HTMLFormElement, name: string): Field {
  return must(form.elements.namedItem(name) as Field | null, `field ${name}`);
}

/** The input called `name` in `form` (a checkbox, a file input); it must exist. */
export function input(form: HTMLFormElement, name: string): HTMLInputElement {
  return must(form.elements.namedItem(name) as HTMLInputElement | null, `field ${name}`);
}
