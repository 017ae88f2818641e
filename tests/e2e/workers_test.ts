/**
 * The per-function Workers together in one local workerd, as
 * `deno task workers:dev` runs them: the orchestrator serves the public API
 * and reaches every other function through service bindings; the embedded
 * index and cache live in the shared Durable Object and outlive a restart.
 * The LLM is the offline model behind a loopback server, so a sentinel query
 * can get an endless answer to cancel.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { configsWithVars } from "../../scripts/wrangler-vars.ts";
import { WORKER_CONFIGS } from "../../scripts/workers.ts";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";
import {
  cancelledWithin,
  leaveAfterFirstDelta,
  startEndlessUpstream,
} from "../helpers/endless_upstream.ts";
import { makeDocx, paragraph } from "../helpers/docx.ts";
import { pgrep, startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const SENTINEL = "ENDLESS-ANSWER";
const KIWI = {
  id: "kiwi",
  title: "Kiwi birds",
  text: "The kiwi is a flightless bird endemic to New Zealand. Kiwi lay the largest eggs " +
    "relative to body size of any bird, and they forage at night with nostrils at the tip of the bill.",
};

type Step = { name: string; via: string };

function post(dev: WranglerDev, path: string, body: unknown) {
  return dev.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function searchIds(dev: WranglerDev, query: string): Promise<string[]> {
  const response = await post(dev, "/v1/search", { query, top_k: 3 });
  assert.equal(response.status, 200, await response.clone().text());
  const { results } = await response.json() as { results: { id: string }[] };
  return results.map((result) => result.id);
}

Deno.test("the Workers compose over service bindings and share state in a Durable Object", async (t) => {
  const upstream = startEndlessUpstream({ sentinel: SENTINEL });
  const persistTo = await Deno.makeTempDir({ prefix: "sift-workers-" });
  const configDir = await Deno.makeTempDir({ prefix: "sift-workers-configs-" });
  let dev: WranglerDev | undefined;
  let failed = true;
  try {
    // Every Worker's LLM is the loopback upstream (wrangler's --var reaches the first only).
    const configs = await configsWithVars(
      WORKER_CONFIGS,
      {
        LLM_BASE_URL: upstream.baseURL,
        LLM_API_KEY: "test-key",
      },
      configDir,
      PROJECT_DIR,
    );
    dev = await startWranglerDev(configs, { persistTo });
    await dev.ready("/healthz");
    const first = dev;

    const ok =
      await t.step("a document posted to /v1/documents is found by /v1/search", async () => {
        const health = await (await first.fetch("/healthz")).json();
        assert.equal(health.providers.index, "durable-object");
        assert.equal(health.providers.cache, "durable-object");
        const ingested = await post(first, "/v1/documents", { documents: [KIWI] });
        assert.equal(ingested.status, 201, await ingested.clone().text());
        assert.equal((await searchIds(first, "flightless bird of New Zealand"))[0], "kiwi#0");
      }) &&
      await t.step(
        "files uploaded to the orchestrator are parsed by the embed Worker: PDF pages, HTML, refusals",
        async () => {
          const upload = async (name: string, bytes: Uint8Array) => {
            const form = new FormData();
            form.append("file", new Blob([bytes as BlobPart]), name);
            form.append("namespace", "files");
            return await first.fetch("/v1/documents", { method: "POST", body: form });
          };
          const fixture = (name: string) =>
            Deno.readFile(new URL(`../fixtures/documents/${name}`, import.meta.url));
          const paper = await upload("paper.pdf", await fixture("paper.pdf"));
          assert.equal(paper.status, 201, await paper.clone().text());
          const html = await upload(
            "page.html",
            new TextEncoder().encode(
              "<!doctype html><title>Quay notes</title><p>Boats moor here.</p>",
            ),
          );
          assert.equal(html.status, 201, await html.clone().text());
          const docx = await upload(
            "ferry.docx",
            makeDocx(paragraph("Ferry notes", "Title") + paragraph("The boat leaves at six.")),
          );
          assert.equal(docx.status, 201, await docx.clone().text());
          const search = await post(first, "/v1/search", {
            query: "slack water pressure sensor harbour",
            namespace: "files",
            mode: "sparse",
            top_k: 3,
          });
          const { results } = await search.json() as {
            results: { doc_id: string; metadata: Record<string, unknown> }[];
          };
          assert.equal(results[0]?.doc_id, "paper");
          assert.equal(typeof results[0]?.metadata.page, "number");
          assert.equal(results[0]?.metadata.source, "paper.pdf");
          for (
            const [name, status, why] of [
              ["scanned.pdf", 400, /looks scanned/],
              ["encrypted.pdf", 400, /encrypted PDF/],
              ["photo.txt", 415, /PNG image/],
            ] as const
          ) {
            const refused = await upload(name, await fixture(name));
            assert.equal(refused.status, status, name);
            assert.match((await refused.json()).error.message, why);
          }
        },
      ) &&
      await t.step(
        "the orchestrator's /openapi.json describes the forwarded routes as their Workers do",
        async () => {
          const whole = await (await first.fetch("/openapi.json")).json();
          for (const path of ["/v1/query", "/v1/search", "/v1/rerank", "/v1/judge/agreement"]) {
            assert.ok(whole.paths[path]?.post?.requestBody, path);
          }
          assert.ok(whole.paths["/v1/documents/{id}"]?.delete, "DELETE /v1/documents/{id}");
          assert.ok(whole.paths["/v1/evaluations/{id}/report"]?.get, "the evaluate Worker's");
        },
      ) &&
      await t.step(
        "a two-turn query with fusion streams every event, each step via a binding",
        async () => {
          const response = await post(first, "/v1/query", {
            query: "Why are kiwi eggs so large?",
            pipeline: { retrieval: { fusion: true }, rerank: { strategy: "two-turn" } },
          });
          assert.equal(response.status, 200);
          const events = await Array.fromAsync(readServerSentEvents(response.body!));
          const names = events.map((event) => event.event).filter((name) =>
            name !== "answer-delta"
          );
          assert.deepEqual(names, [
            "retrieval-end",
            "rubric-end",
            "rerank-end",
            "answer-end",
            "usage",
            "done",
          ], JSON.stringify(events.find((event) => event.event === "error")));
          assert.ok(events.some((event) => event.event === "answer-delta"));
          const usage = events.find((event) => event.event === "usage")!.data as { steps: Step[] };
          assert.deepEqual(
            usage.steps.map((step) => `${step.name}:${step.via}`).sort(),
            ["answer:binding", "fuse:binding", "rerank:binding", "rubric:binding"],
          );
        },
      ) &&
      await t.step("a rubric that generate-rubric cached is hit by the rerank Worker", async () => {
        const query = "Which birds lay the largest eggs for their size?";
        const generated = await (await post(first, "/v1/rubrics", { query })).json();
        assert.equal(generated.cached, false);
        const reranked = await (await post(first, "/v1/rerank", {
          query,
          strategy: "two-turn",
          documents: [KIWI.text, "Penguins cannot fly either."],
        })).json();
        // One scoring batch and no rubric call: the rubric came from the shared cache.
        assert.equal(reranked.usage.llm_calls, 1, JSON.stringify(reranked.usage));
        assert.deepEqual(reranked.rubric.criteria, generated.rubric.criteria);
      }) &&
      await t.step(
        "a client that leaves mid-answer stops the answer Worker's LLM call",
        async () => {
          const response = await post(first, "/v1/query", {
            query: `${SENTINEL}: what is a kiwi?`,
          });
          assert.equal(response.status, 200);
          await leaveAfterFirstDelta(response.body!);
          assert.equal(
            await cancelledWithin(upstream, 5000),
            "cancelled",
            "the answer Worker was still reading its LLM stream 5 s after the client left",
          );
        },
      );
    if (!ok) return;

    await dev.stop();
    dev = await startWranglerDev(configs, { persistTo });
    const second = dev;
    await dev.ready("/healthz");
    failed = !await t.step("after a restart the document is still found", async () => {
      assert.equal((await searchIds(second, "flightless bird of New Zealand"))[0], "kiwi#0");
    });
  } finally {
    await dev?.stop();
    await upstream.close();
    if (failed && dev) console.error(`--- wrangler dev output ---\n${dev.output()}`);
    await Deno.remove(persistTo, { recursive: true }).catch(() => {});
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
    if (dev) {
      assert.equal(
        await pgrep("-f", `workerd.*127\\.0\\.0\\.1:${dev.port}`),
        "",
        "a workerd from this test is still running",
      );
    }
  }
});
