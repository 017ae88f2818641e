/**
 * Every header of a sample of replies, through `Deno.serve` and the Deno
 * entries' handler (`compose/deno-serve.ts`), exactly: the status, each
 * header's name and value, nothing more and nothing less. The request path
 * is tuned for speed (issue #44: headers written on the finished reply, not
 * through hono's helpers), and this is what says such a change left every
 * reply as it was. Values that differ per run (`date`, a generated
 * `x-request-id`, seconds until a rate limit resets) are compared by form.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import { denoHandler } from "../../compose/deno-serve.ts";
import { withoutErrorLogs } from "./helpers.ts";

/** A sample request: its env (beside `DEMO_CORPUS=false`), method, path, headers and body. */
type Sample = {
  name: string;
  env?: Record<string, string>;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent to the server whose index cannot load (a 500). */
  failing?: boolean;
  /** Written on a connection of its own (fetch sets `Host` itself), with `connection: close`. */
  raw?: boolean;
};

/** A reply as compared: `status`, then each header (names in Deno's order: sorted, lower case). */
export type SampledReply = { name: string; status: number; headers: string[]; body: string };

const JSON_HEADERS = { "content-type": "application/json" };
const SEARCH = JSON.stringify({ query: "reciprocal rank fusion", mode: "sparse", top_k: 3 });
const ORIGIN = "https://app.example";
const KEYED = { API_KEYS: "k1,k2" };
const LIMITED = { RATE_LIMIT_PER_MINUTE: "2" };

export const SAMPLES: Sample[] = [
  { name: "healthz", path: "/healthz" },
  { name: "healthz HEAD", method: "HEAD", path: "/healthz" },
  { name: "search", method: "POST", path: "/v1/search", headers: JSON_HEADERS, body: SEARCH },
  {
    name: "search, the caller's request id",
    method: "POST",
    path: "/v1/search",
    headers: { ...JSON_HEADERS, "x-request-id": "caller-42" },
    body: SEARCH,
  },
  {
    name: "search 400",
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: JSON.stringify({ query: "" }),
  },
  {
    name: "search 400 syntax",
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: "{",
  },
  {
    name: "search 415",
    method: "POST",
    path: "/v1/search",
    headers: { "content-type": "text/plain" },
    body: SEARCH,
  },
  {
    name: "rerank 400 (Cohere's shape)",
    method: "POST",
    path: "/v2/rerank",
    headers: JSON_HEADERS,
    body: "{}",
  },
  { name: "404", path: "/nowhere" },
  { name: "404 under /v1", path: "/v1/nowhere" },
  { name: "405", method: "DELETE", path: "/v1/search" },
  { name: "405 healthz", method: "POST", path: "/healthz" },
  {
    name: "401",
    env: KEYED,
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: SEARCH,
  },
  {
    name: "search with a key",
    env: KEYED,
    method: "POST",
    path: "/v1/search",
    headers: { ...JSON_HEADERS, authorization: "Bearer k2" },
    body: SEARCH,
  },
  { name: "healthz with API_KEYS", env: KEYED, path: "/healthz" },
  {
    name: "preflight",
    env: { CORS_ORIGINS: ORIGIN },
    method: "OPTIONS",
    path: "/v1/search",
    headers: {
      origin: ORIGIN,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, authorization",
    },
  },
  {
    name: "search from a listed origin",
    env: { CORS_ORIGINS: ORIGIN },
    method: "POST",
    path: "/v1/search",
    headers: { ...JSON_HEADERS, origin: ORIGIN },
    body: SEARCH,
  },
  {
    name: "404 from a listed origin",
    env: { CORS_ORIGINS: ORIGIN },
    path: "/nowhere",
    headers: { origin: ORIGIN },
  },
  {
    name: "preflight, no Origin",
    method: "OPTIONS",
    path: "/v1/search",
    headers: { "access-control-request-method": "POST" },
  },
  { name: "403 foreign origin", path: "/healthz", headers: { origin: "https://evil.example" } },
  {
    name: "same origin",
    method: "POST",
    path: "/v1/search",
    headers: { ...JSON_HEADERS, origin: "http://HOST" },
    body: SEARCH,
  },
  { name: "403 foreign Host", path: "/healthz", headers: { host: "evil.example" }, raw: true },
  { name: "healthz, connection: close", path: "/healthz", headers: { host: "HOST" }, raw: true },
  {
    name: "rate limited 1",
    env: LIMITED,
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: SEARCH,
  },
  {
    name: "rate limited 2",
    env: LIMITED,
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: SEARCH,
  },
  {
    name: "rate limited 3 (429)",
    env: LIMITED,
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: SEARCH,
  },
  { name: "healthz rate limited", env: LIMITED, path: "/healthz" },
  {
    name: "500",
    failing: true,
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: SEARCH,
  },
  { name: "500, a misconfigured environment", env: { PORT: "not-a-port" }, path: "/healthz" },
  {
    name: "500, a misconfigured environment, a listed origin",
    env: { PORT: "not-a-port", CORS_ORIGINS: ORIGIN },
    path: "/healthz",
    headers: { origin: ORIGIN },
  },
  {
    name: "search in a cache scope",
    method: "POST",
    path: "/v1/search",
    headers: { ...JSON_HEADERS, "x-sift-cache-scope": "run-1" },
    body: SEARCH,
  },
  { name: "console page", path: "/" },
  // Last: the demo corpus stays in the index once loaded.
  {
    name: "search, the demo corpus",
    env: { DEMO_CORPUS: "true" },
    method: "POST",
    path: "/v1/search",
    headers: JSON_HEADERS,
    body: JSON.stringify({ query: "How does reciprocal rank fusion work?", mode: "sparse" }),
  },
];

/** The variables the samples set, removed around them (the runner's own are put back). */
const VARIABLES = ["DEMO_CORPUS", "API_KEYS", "CORS_ORIGINS", "RATE_LIMIT_PER_MINUTE", "PORT"];

function serve(failing: boolean) {
  const runtime = new Runtime(
    failing
      ? {
        log: {
          location: "/srv/sift/.data/index.log",
          load: () => Promise.reject(new Error("EIO")),
          append: () => Promise.resolve(),
          checkpoint: () => Promise.resolve(),
          tailBytes: 0,
          checkpointBytes: 0,
        },
      }
      : {},
  );
  const app = createSiftApp({ runtime });
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    denoHandler(app, runtime, "127.0.0.1"),
  );
}

/** One request written by hand, answered on a connection that then closes. */
async function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<Response> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "connection: close",
    "",
    "",
  ].join("\r\n");
  await connection.write(new TextEncoder().encode(head));
  const text = new TextDecoder().decode(await new Response(connection.readable).arrayBuffer());
  const [lines = "", body = ""] = text.split("\r\n\r\n", 2);
  const [status = "", ...fields] = lines.split("\r\n");
  return new Response(body, {
    status: Number(status.split(" ")[1]),
    headers: fields.map((field) => {
      const colon = field.indexOf(":");
      return [field.slice(0, colon), field.slice(colon + 1).trim()] as [string, string];
    }),
  });
}

/** Each sample's reply, from two servers on loopback (one whose index fails to load). */
export async function sampleReplies(): Promise<SampledReply[]> {
  const saved = new Map(VARIABLES.map((name) => [name, Deno.env.get(name)]));
  const servers = { ok: serve(false), failing: serve(true) };
  const replies: SampledReply[] = [];
  try {
    for (const sample of SAMPLES) {
      for (const name of VARIABLES) Deno.env.delete(name);
      Deno.env.set("DEMO_CORPUS", "false");
      for (const [name, value] of Object.entries(sample.env ?? {})) Deno.env.set(name, value);
      const server = sample.failing ? servers.failing : servers.ok;
      const host = `127.0.0.1:${server.addr.port}`;
      const headers = Object.fromEntries(
        Object.entries(sample.headers ?? {}).map(([name, value]) => [
          name,
          value.replace("HOST", host),
        ]),
      );
      const response = await withoutErrorLogs(() =>
        sample.raw
          ? rawRequest(server.addr.port, sample.method ?? "GET", sample.path, headers)
          : fetch(`http://${host}${sample.path}`, {
            method: sample.method ?? "GET",
            headers,
            ...(sample.body === undefined ? {} : { body: sample.body }),
          })
      );
      replies.push({
        name: sample.name,
        status: response.status,
        headers: [...response.headers].map(([name, value]) => `${name}: ${value}`),
        body: await response.text(),
      });
    }
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    await Promise.all([servers.ok.shutdown(), servers.failing.shutdown()]);
  }
  return replies;
}

/** Per-run values by their form: a date, a generated request id, seconds, a page's length. */
function normalized(reply: SampledReply): { status: number; headers: string[] } {
  return {
    status: reply.status,
    headers: reply.headers.map((line) =>
      line
        .replace(/^date: .*GMT$/, "date: <date>")
        .replace(/^x-request-id: [0-9a-f-]{36}$/, "x-request-id: <uuid>")
        .replace(/^(ratelimit-reset|retry-after): \d+$/, "$1: <seconds>")
    ),
  };
}

/** The length of a page or of hits in the demo corpus follows them, not the request path. */
const LENGTH_FOLLOWS_CONTENT = new Set(["console page", "search, the demo corpus"]);

/** The console page's length and its script's hash follow the page, not the request path. */
function consolePage(line: string): string {
  return line.replace(/^content-length: \d+$/, "content-length: <n>")
    .replace(/'sha256-[\w+/=]+'/, "'sha256-<script>'");
}

const EXPECTED: Record<string, { status: number; headers: string[] }> = {
  "401": {
    "status": 401,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 72",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      'www-authenticate: Bearer realm="sift"',
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "404": {
    "status": 404,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 68",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "405": {
    "status": 405,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "allow: POST",
      "cache-control: no-store",
      "content-length: 98",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "500": {
    "status": 500,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 69",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "healthz": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 194",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "healthz HEAD": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 0",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search, the caller's request id": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: caller-42",
    ],
  },
  "search 400": {
    "status": 400,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 73",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search 400 syntax": {
    "status": 400,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 138",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search 415": {
    "status": 415,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 110",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "rerank 400 (Cohere's shape)": {
    "status": 400,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 219",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "404 under /v1": {
    "status": 404,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 108",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "405 healthz": {
    "status": 405,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "allow: GET, HEAD",
      "cache-control: no-store",
      "content-length: 99",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search with a key": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "healthz with API_KEYS": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 194",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "preflight": {
    "status": 204,
    "headers": [
      "access-control-allow-headers: content-type,authorization",
      "access-control-allow-methods: GET,HEAD,PUT,POST,DELETE,PATCH,QUERY",
      "access-control-allow-origin: https://app.example",
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "access-control-max-age: 600",
      "date: <date>",
      "vary: Origin, Access-Control-Request-Headers",
      "x-content-type-options: nosniff",
    ],
  },
  "search from a listed origin": {
    "status": 200,
    "headers": [
      "access-control-allow-origin: https://app.example",
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "404 from a listed origin": {
    "status": 404,
    "headers": [
      "access-control-allow-origin: https://app.example",
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 68",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "preflight, no Origin": {
    "status": 204,
    "headers": [
      "access-control-allow-methods: GET,HEAD,PUT,POST,DELETE,PATCH,QUERY",
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "access-control-max-age: 600",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
    ],
  },
  "403 foreign origin": {
    "status": 403,
    "headers": [
      "cache-control: no-store",
      "content-length: 98",
      "content-type: application/json",
      "date: <date>",
      "x-content-type-options: nosniff",
    ],
  },
  "same origin": {
    "status": 200,
    "headers": [
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "403 foreign Host": {
    "status": 403,
    "headers": [
      "cache-control: no-store",
      "connection: close",
      "content-length: 131",
      "content-type: application/json",
      "date: <date>",
      "x-content-type-options: nosniff",
    ],
  },
  "healthz, connection: close": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "connection: close",
      "content-length: 194",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "rate limited 1": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "ratelimit-limit: 2",
      "ratelimit-remaining: 1",
      "ratelimit-reset: <seconds>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "rate limited 2": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "ratelimit-limit: 2",
      "ratelimit-remaining: 0",
      "ratelimit-reset: <seconds>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "rate limited 3 (429)": {
    "status": 429,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 108",
      "content-type: application/json",
      "date: <date>",
      "ratelimit-limit: 2",
      "ratelimit-remaining: 0",
      "ratelimit-reset: <seconds>",
      "retry-after: <seconds>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "healthz rate limited": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 194",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "500, a misconfigured environment": {
    "status": 500,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 75",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
    ],
  },
  "500, a misconfigured environment, a listed origin": {
    "status": 500,
    "headers": [
      "cache-control: no-store",
      "content-length: 75",
      "content-type: application/json",
      "date: <date>",
      "x-content-type-options: nosniff",
    ],
  },
  "search in a cache scope": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: 53",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "console page": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-cache",
      "content-length: <n>",
      "content-security-policy: default-src 'none'; script-src 'sha256-<script>'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "content-type: text/html; charset=utf-8",
      "date: <date>",
      "referrer-policy: no-referrer",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
  "search, the demo corpus": {
    "status": 200,
    "headers": [
      "access-control-expose-headers: x-request-id,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset",
      "cache-control: no-store",
      "content-length: <n>",
      "content-type: application/json",
      "date: <date>",
      "vary: Origin",
      "x-content-type-options: nosniff",
      "x-request-id: <uuid>",
    ],
  },
};

Deno.test("every header of a sample of replies, through Deno.serve", async () => {
  const replies = await sampleReplies();
  const actual = Object.fromEntries(replies.map((reply) => {
    const { status, headers } = normalized(reply);
    return [reply.name, {
      status,
      headers: LENGTH_FOLLOWS_CONTENT.has(reply.name) ? headers.map(consolePage) : headers,
    }];
  }));
  assert.deepEqual(actual, EXPECTED);
});
