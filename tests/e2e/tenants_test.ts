/**
 * Tenants checked from outside, as a new user would (#23's first Done-when
 * line): `deno task start` with `API_KEYS=ka:acme,kb:globex,kc:acme`. A second
 * key of acme sees acme's document; globex finds nothing of it through
 * `/v1/search` (with or without a namespace), `DELETE`, `/v1/query` or MCP
 * `search`, and gets 404 for acme's job (in Deno KV) and evaluation run.
 */
import assert from "node:assert/strict";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";
import { connectMcp, textOf } from "../helpers/mcp_client.ts";
import { startWebhookReceiver } from "../helpers/webhook_receiver.ts";
import { type RunningService, startService } from "./service.ts";

const SECRET = "whsec_" + btoa("sift-tenants-webhook-secret-01234");

function call(sift: RunningService, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${sift.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
}

async function status(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.body?.cancel();
  return answered.status;
}

Deno.test("deno task start with key:tenant entries keeps acme's data from globex on every door", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-tenants-" });
  const receiver = startWebhookReceiver(SECRET);
  try {
    await using sift = await startService({
      SIFT_DATA_DIR: dataDir,
      API_KEYS: "ka:acme,kb:globex,kc:acme",
      WEBHOOK_SECRET: SECRET,
      ALLOW_PRIVATE_CALLBACKS: "true",
    });
    const ingested = await call(sift, "ka", "POST", "/v1/documents", {
      documents: [{ id: "secretdoc", text: "Acme's lighthouse ledger: the confidential figures." }],
    });
    assert.equal(ingested.status, 201, await ingested.text());

    const search = async (key: string, body: Record<string, unknown> = {}) => {
      const response = await call(sift, key, "POST", "/v1/search", {
        query: "lighthouse ledger",
        ...body,
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { results: { doc_id: string }[] }).results
        .map((hit) => hit.doc_id);
    };
    assert.deepEqual(await search("kc"), ["secretdoc"]);
    assert.deepEqual(await search("kb"), []);
    assert.deepEqual(await search("kb", { namespace: "default" }), []);
    // The demo corpus is the un-tenanted space's: not globex's either.
    assert.deepEqual(await search("kb", { query: "What is sift?", mode: "sparse" }), []);

    const query = await call(sift, "kb", "POST", "/v1/query", { query: "the lighthouse ledger?" });
    const events = await Array.fromAsync(readServerSentEvents(query.body!));
    const retrieval = events.find((event) => event.event === "retrieval-end")?.data as {
      results: unknown[];
    };
    assert.deepEqual(retrieval.results, []);

    for (const [key, expected] of [["kb", false], ["kc", true]] as const) {
      const { client, close } = await connectMcp(sift.url, { apiKey: key });
      try {
        const result = await client.callTool({
          name: "search",
          arguments: { query: "lighthouse ledger" },
        });
        assert.equal(textOf(result).includes("secretdoc"), expected, key);
      } finally {
        await close();
      }
    }

    assert.equal(
      await status(call(sift, "kb", "DELETE", "/v1/documents/secretdoc?namespace=default")),
      404,
    );
    assert.deepEqual(await search("ka"), ["secretdoc"]);

    const job = await call(sift, "ka", "POST", "/v1/jobs", {
      route: "/v1/search",
      body: { query: "lighthouse ledger" },
      callback_url: receiver.url,
    });
    assert.equal(job.status, 202);
    const { id: jobId } = (await job.json()) as { id: string };
    const [delivery] = await receiver.waitFor(jobId, 1);
    // The job ran as acme: its search found acme's document.
    assert.match(JSON.stringify(delivery!.json), /secretdoc/);
    assert.equal(await status(call(sift, "kc", "GET", `/v1/jobs/${jobId}`)), 200);
    assert.equal(await status(call(sift, "kb", "GET", `/v1/jobs/${jobId}`)), 404);

    const started = await call(sift, "ka", "POST", "/v1/evaluations", {
      dataset: { questions: [{ id: "q1", question: "What is in the lighthouse ledger?" }] },
      variants: ["none"],
      run_id: "acme-run",
    });
    assert.equal(started.status, 202, await started.text());
    assert.equal(await status(call(sift, "kc", "GET", "/v1/evaluations/acme-run")), 200);
    assert.equal(await status(call(sift, "kb", "GET", "/v1/evaluations/acme-run")), 404);
  } finally {
    await receiver.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
