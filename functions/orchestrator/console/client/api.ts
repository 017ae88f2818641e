/**
 * Calls to sift from this origin, with the API key when there is one: asked
 * for on a 401 and kept in this tab's session storage only. The key travels
 * in a header, never in a URL.
 */
import { $, input } from "./dom.ts";
import type { ErrorBody } from "./wire.ts";

const KEY = "sift-api-key";

let keyWaiter: (() => void) | null = null;

/** Shows the key form; resolves once a key was given. */
function askForKey(): Promise<void> {
  const form = $("#key-form");
  form.hidden = false;
  $("input", form).focus();
  return new Promise((resolve) => {
    keyWaiter = resolve;
  });
}

/** Wires the key form and the "API key" button. */
export function setUpKey(): void {
  const form = $<HTMLFormElement>("#key-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY, input(form, "key").value.trim());
    form.reset();
    form.hidden = true;
    if (keyWaiter) keyWaiter();
    keyWaiter = null;
  });
  $("#key-button").addEventListener("click", () => askForKey());
}

/** `fetch` with the key; on a 401 asks for a key and tries again (three times at most). */
export async function api(path: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 0;; attempt++) {
    const headers = new Headers(init && init.headers);
    const key = sessionStorage.getItem(KEY);
    if (key) headers.set("authorization", "Bearer " + key);
    const response = await fetch(path, Object.assign({}, init, { headers }));
    if (response.status !== 401 || attempt > 2) return response;
    await response.body?.cancel();
    await askForKey();
  }
}

/** A POST of `body` as JSON. */
export const postJson = (path: string, body: unknown, signal?: AbortSignal): Promise<Response> =>
  api(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: signal ?? null,
  });

/** An error reply as one line: its type and message, else its status. */
export async function errorText(response: Response): Promise<string> {
  try {
    const body = await response.json() as ErrorBody;
    return body.error.type + ": " + body.error.message;
  } catch {
    return "HTTP " + response.status;
  }
}
