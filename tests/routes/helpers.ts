/**
 * Shared helpers for route tests: the app is called with `app.request(path,
 * init, env)`, never through a server, and event streams are read from the
 * response body's bytes.
 */
import { createSiftApp } from "../../app.ts";
import { readServerSentEvents, type ServerSentEvent } from "../../shared/http/event-reader.ts";

export type Env = Record<string, string>;

/** No demo corpus: each test ingests exactly what it searches. */
export const EMPTY_ENV: Env = { DEMO_CORPUS: "false" };

export type SiftApp = ReturnType<typeof createSiftApp>;

/**
 * A fresh app (its own index and cache, or the one given) and a JSON `POST`
 * bound to one env (variables, and on Workers bindings beside them).
 */
export function testApp<E extends Record<string, unknown> = Env>(
  env: E = EMPTY_ENV as unknown as E,
  app: SiftApp = createSiftApp(),
) {
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

/** An error's message in sift's and OpenAI's shape (`error.message`) or Cohere's (`message`). */
export function errorMessageOf(body: unknown): string {
  const shaped = body as { error?: { message?: unknown }; message?: unknown };
  const message = shaped.error?.message ?? shaped.message;
  if (typeof message !== "string") throw new Error(`not an error body: ${JSON.stringify(body)}`);
  return message;
}

export type { ServerSentEvent };

/** Reads a `text/event-stream` response to its end. */
export async function readEvents(response: Response): Promise<ServerSentEvent[]> {
  if (!response.body) throw new Error("response has no body");
  return await Array.fromAsync(readServerSentEvents(response.body));
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
