import assert from "node:assert/strict";
import { SiftError, UpstreamError } from "../../shared/errors.ts";
import { DATASET_MAX_REDIRECTS, fetchDatasetText } from "./dataset-fetch.ts";

const LINE = '{"question":"What is RRF?"}\n';

/** A loopback dataset server; `hits` counts requests by path. */
function datasetServer() {
  const hits: string[] = [];
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, (request): Response | Promise<Response> => {
    const url = new URL(request.url);
    hits.push(url.pathname);
    const base: string = `http://127.0.0.1:${server.addr.port}`;
    switch (url.pathname) {
      case "/questions.jsonl":
        return new Response(LINE);
      case "/moved":
        return Response.redirect(`${base}/questions.jsonl`, 302);
      case "/relative":
        return new Response(null, { status: 301, headers: { location: "/questions.jsonl" } });
      case "/elsewhere":
        // Loopback under another name: another host, so never followed.
        return Response.redirect(`http://localhost:${server.addr.port}/questions.jsonl`, 302);
      case "/loop":
        return Response.redirect(`${base}/loop`, 302);
      case "/endless": {
        const chunk = new TextEncoder().encode(LINE.repeat(64));
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            // Bounded so a failing test still ends; far past the cap either way.
            if (++sent > 10_000) controller.close();
            else controller.enqueue(chunk);
          },
        });
        return new Response(body);
      }
      case "/declared-large":
        return new Response(LINE.repeat(100));
      case "/slow":
        return new Promise<Response>((resolve) =>
          setTimeout(() => resolve(new Response(LINE)), 700)
        );
      default:
        return new Response("no", { status: 404 });
    }
  });
  const url = (path: string) => `http://127.0.0.1:${server.addr.port}${path}`;
  return { url, hits, close: () => server.shutdown() };
}

Deno.test("fetchDatasetText() follows redirects on the same host, absolute or relative", async () => {
  const server = datasetServer();
  try {
    assert.equal(await fetchDatasetText(server.url("/moved")), LINE);
    assert.equal(await fetchDatasetText(server.url("/relative")), LINE);
    assert.deepEqual(server.hits, ["/moved", "/questions.jsonl", "/relative", "/questions.jsonl"]);
  } finally {
    await server.close();
  }
});

Deno.test("fetchDatasetText() refuses a redirect to another host without following it", async () => {
  const server = datasetServer();
  try {
    await assert.rejects(
      fetchDatasetText(server.url("/elsewhere")),
      (error: Error) => error instanceof UpstreamError && /another host/.test(error.message),
    );
    assert.deepEqual(server.hits, ["/elsewhere"], "the other host is never asked");
  } finally {
    await server.close();
  }
});

Deno.test("fetchDatasetText() stops after a bounded number of redirects", async () => {
  const server = datasetServer();
  try {
    await assert.rejects(
      fetchDatasetText(server.url("/loop")),
      (error: Error) =>
        error instanceof UpstreamError && /redirected more than/.test(error.message),
    );
    assert.equal(server.hits.length, DATASET_MAX_REDIRECTS + 1);
  } finally {
    await server.close();
  }
});

Deno.test("fetchDatasetText() cuts off a body over the byte cap, declared or streamed", async () => {
  const server = datasetServer();
  try {
    for (const path of ["/endless", "/declared-large"]) {
      await assert.rejects(
        fetchDatasetText(server.url(path), { maxBytes: 1024 }),
        (error: Error) =>
          error instanceof UpstreamError && /larger than 1024 bytes/.test(error.message),
        path,
      );
    }
  } finally {
    await server.close();
  }
});

Deno.test("fetchDatasetText() gives up after its time limit, and refuses a failed status", async () => {
  const server = datasetServer();
  try {
    const started = performance.now();
    await assert.rejects(
      fetchDatasetText(server.url("/slow"), { timeoutMs: 100 }),
      (error: Error) => error instanceof SiftError && error.status === 504,
    );
    assert.ok(performance.now() - started < 600);
    await assert.rejects(
      fetchDatasetText(server.url("/missing")),
      (error: Error) => error instanceof UpstreamError && /answered 404/.test(error.message),
    );
  } finally {
    await server.close();
  }
});
