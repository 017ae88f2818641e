/**
 * sift's MCP server on Workers, as `deno task workers:dev` runs them: every
 * Worker in one local workerd, the orchestrator serving `/mcp` and reaching
 * the other functions through service bindings, cancellations through the
 * Durable Object. The LLM is the offline model behind a loopback server,
 * so a sentinel question gets an endless answer to cancel.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { configsWithVars } from "../../scripts/wrangler-vars.ts";
import { WORKER_CONFIGS } from "../../scripts/workers.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";
import { cancelledWithin, startEndlessUpstream } from "../helpers/endless_upstream.ts";
import { assertFourTools, connectMcp, textOf } from "../helpers/mcp_client.ts";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const SENTINEL = "ENDLESS-ANSWER";
const API_KEY = "sk-sift-workers-mcp";
const KIWI = {
  id: "kiwi",
  title: "Kiwi birds",
  text: "The kiwi is a flightless bird endemic to New Zealand. Kiwi lay the largest eggs " +
    "relative to body size of any bird, and they forage at night with nostrils at the tip of the bill.",
};

// deno-lint-ignore no-explicit-any
type Structured = any;

Deno.test("under workerd: the official MCP client against the orchestrator Worker, steps via bindings", async (t) => {
  const upstream = startEndlessUpstream({ sentinel: SENTINEL });
  const persistTo = await Deno.makeTempDir({ prefix: "sift-workers-mcp-" });
  const configDir = await Deno.makeTempDir({ prefix: "sift-workers-mcp-configs-" });
  let dev: WranglerDev | undefined;
  let failed = true;
  try {
    const configs = await configsWithVars(
      WORKER_CONFIGS,
      // A bare key for the MCP steps, and two tenants (#23) for the last step.
      {
        LLM_BASE_URL: upstream.baseURL,
        LLM_API_KEY: "test-key",
        API_KEYS: `${API_KEY},ka:acme,kb:globex,kc:acme`,
      },
      configDir,
      PROJECT_DIR,
    );
    dev = await startWranglerDev(configs, { persistTo });
    const running = dev;
    await running.ready("/healthz");
    const { client, close } = await connectMcp(running.baseUrl, { apiKey: API_KEY });
    let ok = false;
    try {
      ok = await t.step("lists the four tools with input and output schemas", async () => {
        await assertFourTools(client);
      }) && await t.step("ingest, then search finds the document", async () => {
        const ingested = await client.callTool({
          name: "ingest",
          arguments: { documents: [KIWI] },
        });
        assert.ok(!ingested.isError, textOf(ingested));
        const found = await client.callTool({
          name: "search",
          arguments: { query: "flightless bird of New Zealand", top_k: 3 },
        });
        assert.ok(!found.isError, textOf(found));
        assert.equal((found.structuredContent as Structured).results[0].id, "kiwi#0");
      }) && await t.step(
        "ask (two-turn): progress first, every step via a binding, citations open",
        async () => {
          const progress: string[] = [];
          const result = await client.callTool(
            {
              name: "ask",
              arguments: { query: "Why are kiwi eggs so large?", preset: "two-turn" },
            },
            undefined,
            { onprogress: (note) => progress.push(note.message ?? "") },
          );
          assert.ok(!result.isError, textOf(result));
          const answer = result.structuredContent as Structured;
          assert.match(progress[0] ?? "", /^retrieval done/);
          assert.ok(progress.length >= 4, progress.join(" | "));
          assert.deepEqual(
            answer.steps.map((step: { name: string; via: string }) => `${step.name}:${step.via}`)
              .sort(),
            ["answer:binding", "rerank:binding", "retrieval:binding", "rubric:binding"],
          );
          assert.ok(answer.citations.length > 0, answer.answer);
          for (const citation of answer.citations) {
            const read = await client.readResource({ uri: citation.uri });
            assert.equal(
              (read.contents[0] as { text: string }).text,
              answer.sources[citation.index - 1].text,
            );
          }
        },
      ) && await t.step("rerank: per-criterion contributions sum to the final score", async () => {
        const result = await client.callTool({
          name: "rerank",
          arguments: {
            query: "Which birds lay the largest eggs for their size?",
            documents: [KIWI.text, "Penguins cannot fly either."],
          },
        });
        assert.ok(!result.isError, textOf(result));
        const reranked = result.structuredContent as Structured;
        for (const document of reranked.results) {
          const sum = Object.values(document.contributions as Record<string, number>)
            .reduce((total, part) => total + part, 0);
          assert.ok(Math.abs(sum - document.scores.final) < 1e-4, JSON.stringify(document));
        }
        assert.equal(reranked.results.length + reranked.discarded.length, 2);
      }) && await t.step("bad arguments are a tool error naming the field", async () => {
        const result = await client.callTool({ name: "ask", arguments: { preset: "two-turn" } });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /query/);
      }) &&
        await t.step("cancelling ask mid-answer stops the answer Worker's LLM stream", async () => {
          const controller = new AbortController();
          const call = client.callTool(
            {
              name: "ask",
              arguments: { query: `${SENTINEL}: what is a kiwi?`, preset: "none" },
            },
            undefined,
            {
              signal: controller.signal,
              onprogress: (note) => {
                if (!note.message?.startsWith("retrieval done")) controller.abort("enough");
              },
            },
          );
          await assert.rejects(call);
          assert.equal(
            await cancelledWithin(upstream, 5000),
            "cancelled",
            "the answer Worker was still reading its LLM stream 5 s after the client cancelled",
          );
        });
    } finally {
      await close();
    }
    ok = ok && await t.step("no key is 401, a foreign Origin 403", async () => {
      const post = (headers: Record<string, string>) =>
        running.fetch("/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      const anonymous = await post({});
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer/);
      const foreign = await post({
        authorization: `Bearer ${API_KEY}`,
        origin: "https://evil.example",
      });
      await foreign.body?.cancel();
      assert.equal(foreign.status, 403);
    });
    ok = ok && await t.step(
      "tenants stay apart through the bindings, the Durable Object and the Queue",
      async () => await tenantsStayApart(running),
    );
    failed = !ok;
  } finally {
    await dev?.stop();
    await upstream.close();
    if (failed && dev) console.error(`--- wrangler dev output ---\n${dev.output()}`);
    await Deno.remove(persistTo, { recursive: true }).catch(() => {});
    await Deno.remove(configDir, { recursive: true }).catch(() => {});
  }
});

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
  return ((await response.json()) as { results: { doc_id: string }[] }).results
    .map((hit) => hit.doc_id);
}

/**
 * A document and an evaluation run of acme are found by acme's second key and
 * by no other (globex, or the bare key the MCP steps used), through the
 * orchestrator, its service bindings and MCP; the run's slices, handed out by
 * the Queue, run as acme and finish.
 */
async function tenantsStayApart(dev: WranglerDev): Promise<void> {
  const ingested = await call(dev, "ka", "POST", "/v1/documents", {
    documents: [{ id: "pilot", text: "The harbour pilot boards two hours before high tides." }],
  });
  assert.equal(ingested.status, 201, await ingested.text());
  assert.deepEqual(await searched(dev, "kc"), ["pilot"]);
  assert.deepEqual(await searched(dev, "kb"), []);
  // The bare key's space holds the MCP steps' kiwi, not acme's pilot.
  for (const key of ["kb", API_KEY]) {
    assert.ok(!(await searched(dev, key, "default")).includes("pilot"), key);
  }
  const mcp = await connectMcp(dev.baseUrl, { apiKey: "kb" });
  try {
    const found = await mcp.client.callTool({
      name: "search",
      arguments: { query: "harbour pilot tides" },
    });
    assert.doesNotMatch(textOf(found), /pilot/);
  } finally {
    await mcp.close();
  }
  const deleted = await call(dev, "kb", "DELETE", "/v1/documents/pilot?namespace=default");
  await deleted.body?.cancel();
  assert.equal(deleted.status, 404);
  assert.deepEqual(await searched(dev, "ka"), ["pilot"]);

  const started = await call(dev, "ka", "POST", "/v1/evaluations", {
    dataset: { questions: [{ id: "q1", question: "When does the harbour pilot board?" }] },
    variants: ["none"],
    run_id: "acme-run",
  });
  assert.equal(started.status, 202, await started.clone().text());
  let run: { status?: string } = {};
  for (let i = 0; i < 300 && run.status !== "done"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await (await call(dev, "kc", "GET", "/v1/evaluations/acme-run")).json();
    assert.notEqual(run.status, "failed", JSON.stringify(run));
  }
  assert.equal(run.status, "done", "the Queue's slices ran as acme");
  const foreign = await call(dev, "kb", "GET", "/v1/evaluations/acme-run");
  await foreign.body?.cancel();
  assert.equal(foreign.status, 404);
}
