import assert from "node:assert/strict";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { crossOrigin } from "./browser-safety.ts";

const ORIGINS = ["https://app.example"];

/** The same routes behind sift's middleware and behind hono's `cors` with sift's options. */
function apps() {
  const routes = (app: Hono) => {
    app.get("/json", (c) => c.json({ ok: true }));
    app.get("/raw", () => new Response("raw", { headers: { "x-own": "1" } }));
    app.get("/passed", async () => {
      const upstream = await fetch("data:text/plain,hi"); // immutable headers
      return upstream;
    });
    app.get("/fails", () => {
      throw new Error("boom");
    });
    app.onError((_error, c) => c.json({ error: "failed" }, 500));
    return app;
  };
  const sift = new Hono();
  sift.use("*", crossOrigin(() => ORIGINS));
  const reference = new Hono();
  reference.use(
    "*",
    cors({
      origin: (origin) => ORIGINS.includes(origin) ? origin : null,
      exposeHeaders: [
        "x-request-id",
        "retry-after",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
      ],
      maxAge: 600,
    }),
  );
  return { sift: routes(sift), reference: routes(reference) };
}

Deno.test("crossOrigin() answers a request with no Origin with the headers hono's cors writes", async () => {
  const { sift, reference } = apps();
  for (const path of ["/json", "/raw", "/passed", "/fails", "/missing"]) {
    const ours = await sift.request(path);
    const theirs = await reference.request(path);
    assert.equal(ours.status, theirs.status, path);
    assert.deepEqual([...ours.headers], [...theirs.headers], path);
    assert.equal(await ours.text(), await theirs.text(), path);
  }
});

Deno.test("crossOrigin() still answers a preflight and an allowed origin through hono's cors", async () => {
  const { sift, reference } = apps();
  const requests: [string, RequestInit][] = [
    ["/json", { method: "OPTIONS" }],
    ["/json", { method: "OPTIONS", headers: { origin: "https://app.example" } }],
    ["/json", { headers: { origin: "https://app.example" } }],
  ];
  for (const [path, init] of requests) {
    const ours = await sift.request(path, init);
    const theirs = await reference.request(path, init);
    assert.equal(ours.status, theirs.status);
    assert.deepEqual([...ours.headers], [...theirs.headers]);
  }
});
