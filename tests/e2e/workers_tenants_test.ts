/**
 * Tenants under workerd (#23): every Worker in one local workerd, the index
 * and cache in the Durable Object, evaluations sliced over a local Queue. A
 * document and an evaluation run of acme are found by acme's second key and
 * by no other key, through the orchestrator and its service bindings; the
 * run's slices, handed out by the Queue, run as acme and finish.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { configsWithVars } from "../../scripts/wrangler-vars.ts";
import { WORKER_CONFIGS } from "../../scripts/workers.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));

function call(dev: WranglerDev, key: string, method: string, path: string, body?: unknown) {
  return dev.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function searched(dev: WranglerDev, key: string, namespace?: string): Promise<string[]> {
  const response = await call(dev, key, "POST", "/v1/search", {
    query: "harbour pilot tides",
    ...(namespace ? { namespace } : {}),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { results: { doc_id: string }[] }).results.map((hit) =>
    hit.doc_id
  );
}

async function retrieved(dev: WranglerDev, key: string): Promise<string[]> {
  const response = await call(dev, key, "POST", "/v1/query", {
    query: "When does the harbour pilot board?",
  });
  assert.equal(response.status, 200);
  const events = await Array.fromAsync(readServerSentEvents(response.body!));
  const end = events.find((event) => event.event === "retrieval-end")?.data as {
    results: { doc_id: string }[];
  };
  assert.ok(end, JSON.stringify(events.find((event) => event.event === "error")));
  return end.results.map((hit) => hit.doc_id);
}

Deno.test("under workerd: tenants apart through the bindings, the Durable Object and the Queue", async () => {
  const persistTo = await Deno.makeTempDir({ prefix: "sift-workers-tenants-" });
  const configDir = await Deno.makeTempDir({ prefix: "sift-workers-tenants-configs-" });
  let dev: WranglerDev | undefined;
  let failed = true;
  try {
    const configs = await configsWithVars(
      WORKER_CONFIGS,
      { API_KEYS: "ka:acme,kb:globex,kc:acme", DEMO_CORPUS: "false" },
      configDir,
      PROJECT_DIR,
    );
    dev = await startWranglerDev(configs, { persistTo });
    await dev.ready("/healthz");

    const ingested = await call(dev, "ka", "POST", "/v1/documents", {
      documents: [{ id: "pilot", text: "The harbour pilot boards two hours before high tides." }],
    });
    assert.equal(ingested.status, 201, await ingested.text());
    assert.deepEqual(await searched(dev, "kc"), ["pilot"]);
    assert.deepEqual(await retrieved(dev, "kc"), ["pilot"]);
    assert.deepEqual(await searched(dev, "kb"), []);
    assert.deepEqual(await searched(dev, "kb", "default"), []);
    assert.deepEqual(await retrieved(dev, "kb"), []);
    const deleted = await call(dev, "kb", "DELETE", "/v1/documents/pilot?namespace=default");
    assert.equal(deleted.status, 404);
    await deleted.body?.cancel();
    assert.deepEqual(await searched(dev, "ka"), ["pilot"]);

    const started = await call(dev, "ka", "POST", "/v1/evaluations", {
      dataset: { questions: [{ id: "q1", question: "When does the harbour pilot board?" }] },
      variants: ["none"],
      run_id: "acme-run",
    });
    assert.equal(started.status, 202, await started.clone().text());
    let status: { status?: string } = {};
    for (let i = 0; i < 300 && status.status !== "done"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await (await call(dev, "kc", "GET", "/v1/evaluations/acme-run")).json();
      assert.notEqual(status.status, "failed", JSON.stringify(status));
    }
    assert.equal(status.status, "done", "the Queue's slices ran as acme");
    const foreign = await call(dev, "kb", "GET", "/v1/evaluations/acme-run");
    assert.equal(foreign.status, 404);
    await foreign.body?.cancel();
    failed = false;
  } finally {
    if (failed && dev) console.error(dev.output().slice(-4000));
    await dev?.stop();
    await Deno.remove(persistTo, { recursive: true }).catch(() => {});
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
  }
});
