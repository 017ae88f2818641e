import type { Hono } from "hono";
import { describe } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { CONSOLE_HTML, CONSOLE_SCRIPT } from "./page.ts";

let scriptHash: Promise<string> | undefined;

/** The inline script's CSP source: `'sha256-…'`, computed on the first request. */
function scriptSource(): Promise<string> {
  scriptHash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(CONSOLE_SCRIPT))
    .then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  return scriptHash;
}

/**
 * `GET /`: the console, one self-contained page. Open even with `API_KEYS`
 * (it holds no data; it asks for a key and sends it on each call), so mount
 * it with `createServer`'s `open` routes.
 */
export function mountConsole(app: Hono<AppEnv>): void {
  app.get(
    "/",
    describe({
      tag: "service",
      summary: "The console: ask, compare pipelines, ingest, in one page",
      description: "One self-contained HTML page that loads nothing from another host, under a " +
        "CSP that allows only its own inline script and calls to this origin.",
      open: true,
      responses: {
        200: { description: "The page", content: { "text/html": { schema: { type: "string" } } } },
      },
    }),
    async (c) =>
      c.body(CONSOLE_HTML, 200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": [
          "default-src 'none'",
          `script-src ${await scriptSource()}`,
          "style-src 'unsafe-inline'",
          "img-src data:",
          "connect-src 'self'",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'none'",
        ].join("; "),
        "referrer-policy": "no-referrer",
        "cache-control": "no-cache",
      }),
  );
}
