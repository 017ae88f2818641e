/**
 * Remote steps as the orchestrator meets them: the caller's credentials and
 * request id go along, a failing or silent step becomes an `error` event that
 * names it (the stream still ends with `done`), and an orchestrator with no
 * way to reach a step says which one.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { ROUTE_OWNERS } from "../../functions/orchestrator/forward.ts";
import { createOrchestratorServer } from "../../functions/orchestrator/server.ts";
import { Runtime } from "../../compose/runtime.ts";
import { routesOf as allRoutesOf } from "../../compose/server.ts";
import { readEvents, withoutErrorLogs } from "./helpers.ts";

type Recorded = { path: string; authorization: string | null; requestId: string | null };

/** A loopback server standing in for a deployed function. */
function fakeFunction(handle: (request: Request) => Response | Promise<Response>) {
  const recorded: Recorded[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    recorded.push({
      path: new URL(request.url).pathname,
      authorization: request.headers.get("authorization"),
      requestId: request.headers.get("x-request-id"),
    });
    return handle(request);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    recorded,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function query(app: ReturnType<typeof createSiftApp>, env: Record<string, string>) {
  return app.request("/v1/query", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: "Bearer key-1",
      "x-request-id": "req-42",
    },
    body: JSON.stringify({ query: "What is reciprocal rank fusion?" }),
  }, { API_KEYS: "key-1", ...env });
}

Deno.test("a remote answer step gets the caller's Authorization and x-request-id", async () => {
  const app = createSiftApp();
  // The real answer function, served apart: it checks the key as any deployment would.
  await using answer = fakeFunction((request) => app.fetch(request, { API_KEYS: "key-1" }));
  const response = await query(app, { STEP_URL_ANSWER: answer.url });
  assert.equal(response.headers.get("x-request-id"), "req-42");
  const events = await readEvents(response);
  assert.deepEqual(events.map((event) => event.event).filter((name) => name !== "answer-delta"), [
    "retrieval-end",
    "answer-end",
    "usage",
    "done",
  ]);
  assert.deepEqual(answer.recorded, [{
    path: "/v1/answer",
    authorization: "Bearer key-1",
    requestId: "req-42",
  }]);
});

Deno.test("a remote step that fails gives an error event naming the step, then done", async () => {
  await using rerank = fakeFunction(() =>
    Response.json({ error: { type: "upstream_error", message: "The llm provider failed" } }, {
      status: 502,
    })
  );
  const app = createSiftApp();
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: "What is reciprocal rank fusion?",
      pipeline: { rerank: { strategy: "one-turn" } },
    }),
  }, { STEP_URL_RERANK: rerank.url });
  // The failure is logged on purpose; the test reads the stream, not the log.
  const events = await withoutErrorLogs(() => readEvents(response));
  assert.deepEqual(events.map((event) => event.event), ["retrieval-end", "error", "done"]);
  const error = events[1]!.data as { type: string; message: string; step?: string };
  assert.equal(error.type, "upstream_error");
  assert.match(error.message, /rerank step failed: 502 The llm provider failed/);
  assert.equal(error.step, "rerank");
});

Deno.test("a remote step that does not answer in STEP_TIMEOUT_MS is a timeout naming the step", async () => {
  const silence = Promise.withResolvers<Response>();
  await using fuse = fakeFunction(() => silence.promise);
  try {
    const app = createSiftApp();
    // The fuse step never answers, so ending at all (with a timeout) is the proof.
    const response = await query(app, { STEP_URL_FUSE: fuse.url, STEP_TIMEOUT_MS: "200" });
    const events = await withoutErrorLogs(() => readEvents(response));
    assert.deepEqual(events.map((event) => event.event), ["error", "done"]);
    const error = events[0]!.data as { type: string; message: string; step?: string };
    assert.equal(error.type, "timeout");
    assert.equal(error.step, "fuse");
    assert.match(error.message, /fuse step failed: no answer in time/);
  } finally {
    silence.resolve(new Response("late"));
  }
});

Deno.test("the orchestrator alone with no binding or URL for a step reports it and logs which", async () => {
  const app = createOrchestratorServer(new Runtime());
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
  try {
    const response = await app.request("/v1/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "What is sift?" }),
    }, {});
    const events = await readEvents(response);
    assert.deepEqual(events.map((event) => event.event), ["error", "done"]);
    // The caller learns the server is misconfigured; the log says how.
    assert.match(
      String(errors.join("\n")),
      /FUSE step is not reachable: bind a service named FUSE/,
    );
  } finally {
    console.error = original;
  }
});

Deno.test("the orchestrator alone forwards the routes it does not compose to their owner", async () => {
  const app = createSiftApp();
  await using fuse = fakeFunction((request) => app.fetch(request, { DEMO_CORPUS: "false" }));
  const orchestrator = createOrchestratorServer(new Runtime());
  const response = await orchestrator.request("/v1/fuse", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rankings: [["a", "b"], ["b", "c"]] }),
  }, { STEP_URL_FUSE: fuse.url });
  assert.equal(response.status, 200);
  const body = await response.json() as { results: { id: string }[] };
  assert.equal(body.results[0]!.id, "b");
  assert.equal(fuse.recorded[0]!.path, "/v1/fuse");
  const missing = await orchestrator.request("/v1/nothing", {}, {});
  assert.equal(missing.status, 404);
});

Deno.test("every public route of the all-in-one app is the orchestrator's own or has an owner it forwards to", async () => {
  const owned = (path: string) =>
    ROUTE_OWNERS.some((owner) =>
      owner.path === path ||
      (owner.path.endsWith("/*") && path.startsWith(owner.path.slice(0, -1)))
    );
  const routesOf = (app: { routes: { method: string; path: string }[] }) =>
    app.routes.filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path}`);
  // What the orchestrator deployed alone composes itself: /v1/query, the chat routes...
  const own = new Set(routesOf(createOrchestratorServer(new Runtime())));
  for (const route of ["POST /v1/query", "POST /v1/chat/completions", "GET /v1/models"]) {
    assert.ok(own.has(route), route);
  }
  const routes = routesOf({ routes: await allRoutesOf(createSiftApp()) });
  assert.ok(routes.length > 15, routes.join(", "));
  const orphans = routes.filter((route) => !own.has(route) && !owned(route.split(" ")[1]!));
  assert.deepEqual(orphans, []);
});
