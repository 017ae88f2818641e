/**
 * Every route's body limit is the one the limits page states, checked on every
 * POST route the OpenAPI document lists; and per-item limits hold on the
 * rerank routes.
 */
import assert from "node:assert/strict";
import { LIMITS } from "../../shared/limits.ts";
import { EMPTY_ENV, type ErrorBody, errorMessageOf, testApp } from "./helpers.ts";

const PAGE = (await Deno.readTextFile(new URL("../../docs/limits-and-safety.md", import.meta.url)))
  .replace(/\s+/g, " ");

/** `N MiB (or KiB) for `/a`, `/b` and `/c`` clauses of the limits page's body-limits paragraph. */
function statedBodyLimits(): { byRoute: Map<string, number>; otherwise: number } {
  const byRoute = new Map<string, number>();
  for (const clause of PAGE.matchAll(/(\d+) ([KM])iB for ((?:`\/[^`]+`(?:, | and )?)+)/g)) {
    for (const route of clause[3]!.matchAll(/`([^`]+)`/g)) {
      const path = route[1]!.replace(/:(\w+)/g, "{$1}");
      byRoute.set(path, Number(clause[1]) * (clause[2] === "M" ? 1024 * 1024 : 1024));
    }
  }
  const otherwise = /(\d+) MiB for every other route/.exec(PAGE);
  assert.ok(otherwise, "the limits page states no default body limit");
  return { byRoute, otherwise: Number(otherwise[1]) * 1024 * 1024 };
}

const SECRET = `whsec_${btoa("k".repeat(32))}`;
const ENV = { ...EMPTY_ENV, INGEST_WEBHOOK_SECRET: SECRET, WEBHOOK_SECRET: SECRET };

Deno.test("every POST route refuses a body declared one byte over the limits page's limit, and not at it", async () => {
  const { app } = testApp(ENV);
  const document = await (await app.request("/openapi.json", {}, ENV)).json() as {
    paths: Record<string, { post?: { requestBody?: { content: Record<string, unknown> } } }>;
  };
  const { byRoute, otherwise } = statedBodyLimits();
  assert.ok(byRoute.size >= 10, "the limits page lists the routes with larger limits");
  // Routes that take JSON (an upload-only route's limit is its file's: FILE_MAX_BYTES).
  const routes = Object.entries(document.paths)
    .filter(([, operations]) => operations.post?.requestBody?.content["application/json"])
    .map(([path]) => path);
  for (const route of byRoute.keys()) assert.ok(routes.includes(route), `${route} is not a route`);
  for (const route of routes) {
    const limit = byRoute.get(route) ?? otherwise;
    const send = (declared: number) =>
      app.request(route.replace(/\{[^}]+\}/g, "x"), {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(declared) },
        body: "{}",
      }, ENV);
    const over = await send(limit + 1);
    assert.equal(over.status, 413, `${route}: ${limit + 1} bytes declared`);
    await over.body?.cancel();
    const at = await send(limit);
    assert.notEqual(at.status, 413, `${route}: ${limit} bytes declared`);
    await at.body?.cancel();
  }
});

Deno.test("a chunked body over the limit is cut off with 413 before the stream ends", async () => {
  const { app, env } = testApp();
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(32);
  const total = 64; // chunks: 4 MiB, four times the limit
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === total) return controller.close();
      pulled++;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  const response = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit, env);
  assert.equal(response.status, 413);
  assert.equal((await response.json() as ErrorBody).error.type, "payload_too_large");
  assert.equal(pulled, LIMITS.bodyBytes / chunk.byteLength + 1);
});

Deno.test("/v2/rerank and /v1/rerank answer 400 naming a document over 100,000 characters", async () => {
  const { post } = testApp();
  const long = "word ".repeat(LIMITS.rerankDocumentChars / 5) + "x";
  const cases: [string, unknown, RegExp][] = [
    [
      "/v2/rerank",
      { model: "sift-one-turn", query: "q", documents: ["ok", long] },
      /^documents\.1/,
    ],
    [
      "/v2/rerank",
      { model: "sift-one-turn", query: "q", documents: [{ text: long }] },
      /^documents\.0/,
    ],
    ["/v1/rerank", { query: "q", documents: ["ok", long] }, /^documents\.1/],
  ];
  for (const [route, body, field] of cases) {
    const response = await post(route, body);
    assert.equal(response.status, 400, route);
    const message = errorMessageOf(await response.json());
    assert.match(message, field);
    assert.match(message, /100000 characters/);
  }
  const atLimit = await post("/v2/rerank", {
    model: "sift-relevance",
    query: "q",
    documents: ["x".repeat(LIMITS.rerankDocumentChars)],
  });
  assert.equal(atLimit.status, 200);
});

Deno.test("POST /v1/files refuses an upload declared over FILE_MAX_BYTES and 64 KiB, before reading it", async () => {
  const { app } = testApp(ENV);
  const send = (declared: number) =>
    app.request("/v1/files", {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(declared),
      },
      body: "--x--\r\n",
    }, { ...ENV, FILE_MAX_BYTES: "1000" });
  const over = await send(1000 + 64 * 1024 + 1);
  assert.equal(over.status, 413);
  assert.equal(
    ((await over.json()) as { error: { type: string } }).error.type,
    "invalid_request_error",
  );
  const at = await send(1000 + 64 * 1024);
  assert.notEqual(at.status, 413);
  await at.body?.cancel();
});
