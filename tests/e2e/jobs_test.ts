// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { startWebhookReceiver } from "../helpers/webhook_receiver.ts";
import { startService } from "./service.ts";

const SECRET = "whsec_" + btoa("sift-test-webhook-secret-0123456789");

async function postJob(url: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/v1/jobs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { response, json: await response.json() };
}

async function getJob(url: string, id: string) {
  return await (await fetch(`${url}/v1/jobs/${id}`)).json();
}

/** The job once `done` holds for it (the receiver sees a delivery before the job records it). */
async function jobWhen(url: string, id: string, done: (job: any) => boolean) {
  for (let i = 0; i < 100; i++) {
    const job = await getJob(url, id);
    if (done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} never reached the expected state`);
}

Deno.test("a job runs on Deno KV's queue and its signed result reaches the callback, retried after 500s", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-jobs-" });
  const receiver = startWebhookReceiver(SECRET);
  await using service = await startService({
    SIFT_DATA_DIR: dataDir,
    WEBHOOK_SECRET: SECRET,
    ALLOW_PRIVATE_CALLBACKS: "true",
    JOB_RETRY_BASE_MS: "100",
    EVAL_SLICE_QUESTIONS: "1",
  });
  try {
    const { response, json } = await postJob(service.url, {
      route: "/v1/search",
      body: { query: "How does sift rerank passages?", top_k: 3 },
      callback_url: receiver.url,
    });
    assert.equal(response.status, 202);
    assert.equal(json.status, "queued");
    assert.match(json.id, /^job_/);
    const [delivery] = await receiver.waitFor(json.id);
    assert.ok(delivery!.verified, "the signature checks out with an independent HMAC");
    assert.equal(delivery!.json.type, "job.succeeded");
    const result = delivery!.json.data.result as { results: unknown[] };
    assert.equal(result.results.length, 3);
    const stored = await jobWhen(service.url, json.id, (job) => job.delivery.delivered_at);
    assert.equal(stored.status, "succeeded");
    assert.equal(stored.delivery.attempts, 1);

    // A receiver that fails twice gets the third delivery, the same message each time.
    receiver.answerWith(500, 500);
    const retried = await postJob(service.url, {
      route: "/v1/rubrics",
      body: { query: "What is REBEL?" },
      callback_url: receiver.url,
    });
    const attempts = await receiver.waitFor(retried.json.id, 3);
    assert.equal(new Set(attempts.map((attempt) => attempt.body)).size, 1);
    assert.ok(attempts.every((attempt) => attempt.verified));
    const final = await jobWhen(service.url, retried.json.id, (job) => job.delivery.delivered_at);
    assert.equal(final.delivery.attempts, 3);
    assert.equal(final.delivery.last_status, 204);

    // The same idempotency key is the same job, delivered once.
    const first = await postJob(service.url, {
      route: "/v1/search",
      body: { query: "BM25" },
      callback_url: receiver.url,
      idempotency_key: "nightly-42",
    });
    const again = await postJob(service.url, {
      route: "/v1/search",
      body: { query: "BM25" },
      callback_url: receiver.url,
      idempotency_key: "nightly-42",
    });
    assert.equal(again.response.status, 202);
    assert.equal(again.response.headers.get("idempotent-replayed"), "true");
    assert.equal(again.json.id, first.json.id);
    await receiver.waitFor(first.json.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(receiver.deliveries.filter((d) => d.id === first.json.id).length, 1);

    // An evaluation goes on the same queue, one question per message here.
    const evaluation = await fetch(`${service.url}/v1/evaluations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        dataset: { questions: [{ question: "What is sift?" }, { question: "What is BM25?" }] },
        variants: "none",
      }),
    });
    assert.equal(evaluation.status, 202);
    const { id: evaluationId } = await evaluation.json();
    let status: any;
    for (let i = 0; i < 200 && status?.status !== "done"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await (await fetch(`${service.url}/v1/evaluations/${evaluationId}`)).json();
    }
    assert.equal(status.status, "done", JSON.stringify(status));
    const report =
      await (await fetch(`${service.url}/v1/evaluations/${evaluationId}/report?format=json`))
        .json();
    assert.equal(report.timing.units.computed, 0, "the slices computed every unit");
  } finally {
    await receiver.close();
    await service.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("a job whose delivery is pending when the server is killed is delivered after restart", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-jobs-kill-" });
  const env = {
    SIFT_DATA_DIR: dataDir,
    WEBHOOK_SECRET: SECRET,
    ALLOW_PRIVATE_CALLBACKS: "true",
    JOB_RETRY_BASE_MS: "1500",
    DEMO_CORPUS: "false",
  };
  const receiver = startWebhookReceiver(SECRET);
  receiver.answerWith(503);
  let service = await startService(env);
  try {
    const { json } = await postJob(service.url, {
      route: "/v1/embeddings",
      body: { input: ["pending when killed"] },
      callback_url: receiver.url,
    });
    await receiver.waitFor(json.id, 1);
    // The first attempt failed; the retry waits in the queue when the process dies.
    const pending = await jobWhen(service.url, json.id, (job) => job.delivery.attempts === 1);
    assert.equal(pending.delivery.last_status, 503);
    assert.ok(pending.delivery.next_attempt_at);
    await service.crash();
    service = await startService(env);
    const deliveries = await receiver.waitFor(json.id, 2, 30_000);
    assert.ok(deliveries[1]!.verified);
    assert.equal(deliveries[1]!.json.type, "job.succeeded");
    const stored = await getJob(service.url, json.id);
    assert.equal(stored.status, "succeeded");
  } finally {
    await receiver.close();
    await service.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
