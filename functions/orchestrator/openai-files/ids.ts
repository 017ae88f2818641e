/**
 * Ids of OpenAI's shapes that sort by creation: `file-`, `vs_` or `vsfb_` then 12 hex
 * digits of the time in ms and 12 random ones, so a namespace's document ids
 * (listed in id order) are its records in the order they were made.
 *
 * @example
 * newId("file-"); // "file-019412ab34cd5e6f7a8b9c0d"
 */
export function newId(prefix: "file-" | "vs_" | "vsfb_"): string {
  const time = Date.now().toString(16).padStart(12, "0");
  const random = crypto.getRandomValues(new Uint8Array(6));
  return prefix + time + Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What an id of ours looks like: anything else is a 404 without a lookup. */
export const FILE_ID = /^file-[0-9a-f]{24}$/;
export const STORE_ID = /^vs_[0-9a-f]{24}$/;
export const BATCH_ID = /^vsfb_[0-9a-f]{24}$/;
