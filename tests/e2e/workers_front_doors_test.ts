/**
 * The front doors for callers under `deno task workers:dev`: every Worker in
 * one local workerd, jobs on a local Cloudflare Queue with their records in
 * the Durable Object, callbacks to a loopback receiver, signed pushes.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import OpenAI, { toFile } from "openai";
import { Webhook } from "standardwebhooks";
import { configsWithVars } from "../../scripts/wrangler-vars.ts";
import { WORKER_CONFIGS } from "../../scripts/workers.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";
import { startWebhookReceiver } from "../helpers/webhook_receiver.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const WEBHOOK_SECRET = "whsec_" + btoa("sift-workers-webhook-secret-0123");
const INGEST_SECRET = "whsec_" + btoa("sift-workers-ingest-secret-01234");

function post(dev: WranglerDev, path: string, body: unknown, headers: Record<string, string> = {}) {
  return dev.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

// deno-lint-ignore no-explicit-any
async function jobWhen(dev: WranglerDev, id: string, done: (job: any) => boolean) {
  for (let i = 0; i < 150; i++) {
    const job = await (await dev.fetch(`/v1/jobs/${id}`)).json();
    if (done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${id} never reached the expected state`);
}

Deno.test("under workerd: jobs and evaluations on Queues, signed pushes, OpenAI-compatible chat", async (t) => {
  const receiver = startWebhookReceiver(WEBHOOK_SECRET);
  const persistTo = await Deno.makeTempDir({ prefix: "sift-workers-doors-" });
  const configDir = await Deno.makeTempDir({ prefix: "sift-workers-doors-configs-" });
  let dev: WranglerDev | undefined;
  let failed = true;
  try {
    const configs = await configsWithVars(
      WORKER_CONFIGS,
      {
        WEBHOOK_SECRET,
        INGEST_WEBHOOK_SECRET: INGEST_SECRET,
        ALLOW_PRIVATE_CALLBACKS: "true",
        JOB_RETRY_BASE_MS: "1000",
      },
      configDir,
      PROJECT_DIR,
    );
    dev = await startWranglerDev(configs, { persistTo });
    await dev.ready("/healthz");
    const running = dev;

    const consoleOk = await t.step(
      "GET / is the console, and its same-origin stream runs",
      async () => {
        const page = await running.fetch("/");
        assert.equal(page.status, 200);
        assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'sha256-/);
        assert.match(await page.text(), /<title>sift console<\/title>/);
        // What the page's own fetch sends: Origin is the Worker's origin, not in CORS_ORIGINS.
        const stream = await post(running, "/v1/query", {
          query: "What is reciprocal rank fusion?",
          pipeline: { rerank: { strategy: "two-turn" } },
        }, { origin: running.baseUrl });
        assert.equal(stream.status, 200, await stream.clone().text());
        const text = await stream.text();
        for (const event of ["rubric-end", "rerank-end", "answer-end", "usage", "done"]) {
          assert.ok(text.includes(`event: ${event}\n`), `${event} in\n${text.slice(0, 2000)}`);
        }
      },
    );

    const ok =
      await t.step("a job's signed result reaches the callback, after two 500s", async () => {
        receiver.answerWith(500, 500);
        const accepted = await post(running, "/v1/jobs", {
          route: "/v1/search",
          body: { query: "How does sift rerank passages?", top_k: 2 },
          callback_url: receiver.url,
          idempotency_key: "workers-1",
        });
        assert.equal(accepted.status, 202, await accepted.clone().text());
        const { id } = await accepted.json();
        const again = await post(running, "/v1/jobs", {
          route: "/v1/search",
          body: { query: "How does sift rerank passages?", top_k: 2 },
          callback_url: receiver.url,
          idempotency_key: "workers-1",
        });
        assert.equal((await again.json()).id, id);
        const deliveries = await receiver.waitFor(id, 3, 30_000);
        assert.ok(deliveries.every((delivery) => delivery.verified));
        assert.equal(deliveries[2]!.json.type, "job.succeeded");
        const job = await jobWhen(running, id, (stored) => stored.delivery.delivered_at);
        assert.equal(job.delivery.attempts, 3);
        assert.equal((job.result as { results: unknown[] }).results.length, 2);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(receiver.deliveries.filter((delivery) => delivery.id === id).length, 3);
      }) &&
      await t.step("a signed push ingests once; forged and unsigned ones get 401", async () => {
        // Its own namespace: a document in `default` would retire the demo corpus the chat below asks.
        const body = JSON.stringify({
          documents: [{ id: "pushed", title: "Pushed", text: "Quokkas smile on Rottnest Island." }],
          namespace: "pushed",
        });
        const sign = (id: string, secret = INGEST_SECRET) => {
          const at = new Date();
          return {
            "content-type": "application/json",
            "webhook-id": id,
            "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
            "webhook-signature": new Webhook(secret).sign(id, at, body),
          };
        };
        const push = (headers: Record<string, string>) =>
          running.fetch("/v1/webhooks/documents", { method: "POST", headers, body });
        assert.equal((await push(sign("push-1"))).status, 201);
        const repeated = await push(sign("push-1"));
        assert.equal(repeated.status, 200);
        assert.equal((await repeated.json()).duplicate, true);
        assert.equal((await push(sign("push-2", WEBHOOK_SECRET))).status, 401);
        assert.equal((await push({ "content-type": "application/json" })).status, 401);
      });
    const chatOk = ok &&
      await t.step("the openai client lists, streams and completes", async () => {
        const client = new OpenAI({
          baseURL: `${running.baseUrl}/v1`,
          apiKey: "x",
          maxRetries: 0,
          timeout: 60_000,
        });
        const ids = [];
        for await (const model of client.models.list()) ids.push(model.id);
        assert.ok(ids.includes("sift-two-turn"), ids.join());
        const messages: OpenAI.ChatCompletionMessageParam[] = [
          { role: "user", content: "What does reciprocal rank fusion do?" },
        ];
        const stream = await client.chat.completions.create({
          model: "sift-two-turn",
          messages,
          stream: true,
        });
        let content = "";
        const annotations: { url_citation: { start_index: number; end_index: number } }[] = [];
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta as
            | { content?: string; annotations?: [] }
            | undefined;
          content += delta?.content ?? "";
          annotations.push(...(delta?.annotations ?? []));
        }
        assert.ok(annotations.length > 0, content);
        for (const { url_citation: citation } of annotations) {
          assert.match(content.slice(citation.start_index, citation.end_index), /^\[\d+/);
        }
        const completion = await client.chat.completions.create({
          model: "sift-two-turn",
          messages,
        });
        assert.equal(completion.choices[0]!.message.content, content);
        await assert.rejects(
          () => client.chat.completions.create({ model: "nope", messages }),
          (error) => error instanceof OpenAI.NotFoundError && error.code === "model_not_found",
        );
        // Structured output: the answer Worker turns the caller's JSON Schema into its
        // validator on workerd (no code generation) and answers with the object.
        const structured = await client.chat.completions.create({
          model: "sift-two-turn",
          messages,
          response_format: {
            type: "json_schema",
            json_schema: {
              name: "answer",
              strict: true,
              schema: {
                type: "object",
                properties: {
                  answer: { type: "string" },
                  points: { type: "array", items: { type: "string" } },
                },
                required: ["answer", "points"],
                additionalProperties: false,
              },
            },
          },
        });
        const object = JSON.parse(structured.choices[0]!.message.content!);
        assert.match(object.answer, /\[\d+\]/);
        assert.ok(Array.isArray(object.points) && object.points.length > 0);

        // Files and vector stores: the orchestrator Worker reads the upload, the embed Worker
        // parses it over its binding, records and chunks live in the Durable Object's index.
        const store = await client.vectorStores.create({ name: "workerd" });
        const note = new TextEncoder().encode(
          "Reciprocal rank fusion sums 1 / (k + rank) over the rankings, with k = 60.",
        );
        const added = await client.vectorStores.files.uploadAndPoll(
          store.id,
          await toFile(note, "rrf.txt"),
          { pollIntervalMs: 100 },
        );
        assert.equal(added.status, "completed");
        const found = await client.vectorStores.search(store.id, {
          query: "reciprocal rank fusion",
        });
        assert.equal(found.data[0]?.file_id, added.id);
        const searched = await client.responses.create({
          model: "sift-none",
          input: "What does reciprocal rank fusion sum?",
          tools: [{ type: "file_search", vector_store_ids: [store.id] }],
          include: ["file_search_call.results"],
        });
        assert.equal(searched.output[0]?.type, "file_search_call");
        assert.match(searched.output_text, /k \+ rank/);
      });
    const evalOk = chatOk && await t.step("an evaluation runs in slices on the queue", async () => {
      const started = await post(running, "/v1/evaluations", {
        dataset: {
          questions: [
            { question: "What is sift?" },
            { question: "How does RAG-Fusion merge rankings?" },
            { question: "What does the two-turn reranker generate first?" },
          ],
        },
        variants: "none",
      });
      assert.equal(started.status, 202, await started.clone().text());
      const { id } = await started.json();
      let status: { status: string; progress: { done: number; total: number } } | undefined;
      for (let i = 0; i < 300 && status?.status !== "done"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await (await running.fetch(`/v1/evaluations/${id}`)).json();
        assert.notEqual(status!.status, "failed", JSON.stringify(status));
      }
      assert.equal(status!.status, "done");
      assert.equal(status!.progress.done, status!.progress.total);
      const report = await (await running.fetch(`/v1/evaluations/${id}/report?format=json`)).json();
      assert.equal(report.dataset.questions, 3);
      // The slices computed every unit; the last message only reused them to write the report.
      assert.equal(report.timing.units.computed, 0);
      assert.ok(report.timing.units.reused > 0);
    });
    failed = !evalOk || !consoleOk;
  } finally {
    if (failed && dev) console.error(dev.output().slice(-4000));
    await dev?.stop();
    await receiver.close();
    await Deno.remove(persistTo, { recursive: true }).catch(() => {});
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
  }
});
