/**
 * The Workers rate-limit binding under `wrangler dev` (local workerd). The
 * all-in-one Worker with `[[ratelimits]]` set to 30 a minute and
 * `RATE_LIMIT_PER_MINUTE=30` lets 30 requests through and refuses the 31st
 * with 429 and `Retry-After`; a query's in-process steps are not counted.
 * With the functions apart, an evaluation the orchestrator forwards is
 * charged its steps by the evaluate Worker, and the pipeline runs it sends
 * back over bindings are not counted. Slow (wrangler bundles, then starts
 * workerd).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { configsWithVars } from "../../scripts/wrangler-vars.ts";
import { WORKER_CONFIGS } from "../../scripts/workers.ts";
import { pgrep, startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));

function post(dev: WranglerDev, path: string, body: unknown) {
  return dev.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Copies of `configs` with the vars set and every `[[ratelimits]]` at 30 a minute. */
async function limitedConfigs(configs: string[], directory: string): Promise<string[]> {
  const copies = await configsWithVars(
    configs,
    { RATE_LIMIT_PER_MINUTE: "30", DEMO_CORPUS: "false" },
    directory,
    PROJECT_DIR,
  );
  let bound = 0;
  for (const copy of copies) {
    const text = await Deno.readTextFile(copy);
    const limited = text.replace(
      /^simple = \{ limit = \d+, period = 60 \}$/m,
      "simple = { limit = 30, period = 60 }",
    );
    if (limited !== text) bound++;
    await Deno.writeTextFile(copy, limited);
  }
  assert.ok(bound > 0, "a config binds RATE_LIMITER with a 60 s period");
  return copies;
}

/** The binding's windows are aligned to the minute: start well inside one. */
async function awayFromWindowEdge(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoWindow));
}

function agreement(dev: WranglerDev) {
  return post(dev, "/v1/judge/agreement", { x: [1, 2, 3], y: [1, 3, 2] });
}

/** Sends cheap requests until one is refused; returns how many passed. */
async function passedUntilRefused(dev: WranglerDev, atMost: number): Promise<number> {
  for (let passed = 0; passed <= atMost; passed++) {
    const response = await agreement(dev);
    await response.body?.cancel();
    if (response.status === 429) return passed;
    assert.equal(response.status, 200);
  }
  return atMost + 1;
}

/** Starts wrangler dev on limited copies of `configs`, runs `body`, and cleans up. */
async function withLimitedWorkers(configs: string[], body: (dev: WranglerDev) => Promise<void>) {
  const scratchDir = await Deno.makeTempDir({ prefix: "sift-ratelimit-workers-" });
  let dev: WranglerDev | undefined;
  let failed = true;
  try {
    dev = await startWranglerDev(await limitedConfigs(configs, scratchDir), {
      persistTo: `${scratchDir}/state`,
    });
    await dev.ready("/healthz");
    await awayFromWindowEdge();
    const ingested = await post(dev, "/v1/documents", {
      documents: [{ id: "rrf", text: "Reciprocal rank fusion sums one over k plus the rank." }],
    });
    assert.equal(ingested.status, 201, await ingested.clone().text());
    assert.equal(ingested.headers.get("ratelimit-limit"), "30");
    // The binding serves, not the in-memory fallback: it only says yes or no.
    assert.equal(ingested.headers.get("ratelimit-remaining"), null);
    await ingested.body?.cancel();
    await body(dev);
    failed = false;
  } finally {
    await dev?.stop();
    if (failed && dev) console.error(`--- wrangler dev output ---\n${dev.output()}`);
    await Deno.remove(scratchDir, { recursive: true }).catch(() => {});
    if (dev) {
      assert.equal(
        await pgrep("-f", `workerd.*127\\.0\\.0\\.1:${dev.port}`),
        "",
        "a workerd from this test is still running",
      );
    }
  }
}

Deno.test("the rate-limit binding refuses the 31st request a minute under wrangler dev", async () => {
  await withLimitedWorkers(["wrangler.toml"], async (dev) => {
    const query = await post(dev, "/v1/query", {
      query: "How does reciprocal rank fusion score?",
      pipeline: { retrieval: { fusion: 2 }, rerank: { strategy: "one-turn" } },
    });
    assert.equal(query.status, 200);
    const events = await Array.fromAsync(readServerSentEvents(query.body!));
    assert.ok(events.some((event) => event.event === "done"), JSON.stringify(events.at(-1)));
    // Two requests so far (ingest, query): had the query's steps counted, fewer would pass.
    for (let i = 3; i <= 30; i++) {
      const response = await agreement(dev);
      assert.equal(response.status, 200, `request ${i}: ${await response.clone().text()}`);
      await response.body?.cancel();
    }
    const refused = await agreement(dev);
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).error.type, "rate_limited");
    assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
    assert.equal(refused.headers.get("ratelimit-limit"), "30");
    assert.equal(refused.headers.get("ratelimit-remaining"), "0");
    const health = await dev.fetch("/healthz");
    assert.equal(health.status, 200, "/healthz is never limited");
    await health.body?.cancel();
  });
});

Deno.test("apart on Workers, a forwarded evaluation is charged its steps once, under wrangler dev", async () => {
  await withLimitedWorkers([...WORKER_CONFIGS], async (dev) => {
    const questions = Array.from({ length: 5 }, (_, i) => ({ question: `What is fusion ${i}?` }));
    const accepted = await post(dev, "/v1/evaluations", {
      dataset: { questions },
      variants: ["none", "one-turn"],
    });
    assert.equal(accepted.status, 202, await accepted.clone().text());
    await accepted.body?.cancel();
    // More steps than a minute allows: refused before the binding is asked, so only the
    // request itself is counted (a smaller refused charge would use up what is left: the
    // binding cannot give units back).
    const tooMany = await post(dev, "/v1/evaluations", {
      dataset: { questions: Array.from({ length: 31 }, (_, i) => ({ question: `Q${i}?` })) },
      variants: ["none"],
    });
    assert.equal(tooMany.status, 429);
    assert.match((await tooMany.json()).error.message, /schedules 31 steps, more than the rate/);
    // 30 - 1 (ingest) - 10 (5 questions × 2 variants) - 1 (the refused request) = 18, while the
    // evaluation's pipeline runs come back to the orchestrator over a binding, uncounted.
    assert.equal(await passedUntilRefused(dev, 30), 18);
  });
});
