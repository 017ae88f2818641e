/**
 * Shared helpers for route tests: the app is called with `app.request(path,
 * init, env)`, never through a server, and event streams are read from the
 * response body's bytes.
 */
import { createSiftApp } from "../../app.ts";

export type Env = Record<string, string>;

/** No demo corpus: each test ingests exactly what it searches. */
export const EMPTY_ENV: Env = { DEMO_CORPUS: "false" };

export type SiftApp = ReturnType<typeof createSiftApp>;

/** A fresh app (its own index and cache) and a JSON `POST` bound to one env. */
export function testApp(env: Env = EMPTY_ENV) {
  const app = createSiftApp();
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }, env);
  return { app, env, post };
}

/** The shape of every error body. */
export type ErrorBody = { error: { type: string; message: string } };

export type ServerSentEvent = { event: string; data: unknown };

/**
 * Reads a `text/event-stream` body to its end and splits it into events:
 * blank-line separated blocks of `event:` and `data:` lines (data lines are
 * joined with "\n" and parsed as JSON). Bytes are decoded as a stream, so an
 * event or a UTF-8 character split across chunks still comes out whole.
 */
export async function readEvents(response: Response): Promise<ServerSentEvent[]> {
  if (!response.body) throw new Error("response has no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events: ServerSentEvent[] = [];
  let buffer = "";
  const flush = (block: string) => {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join("\n")) });
  };
  while (true) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    for (const block of blocks) flush(block);
    if (done) break;
  }
  if (buffer.trim() !== "") flush(buffer);
  return events;
}

/** Runs `body` with `console.error` silenced: expected 500s log on purpose. */
export async function withoutErrorLogs<T>(body: () => T | Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => {};
  try {
    return await body();
  } finally {
    console.error = original;
  }
}
