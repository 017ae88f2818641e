/**
 * Workers AI's cross-encoder as a rerank model, against FAKES of the
 * documented shapes (tests/helpers/workers_ai_fake.ts): Cloudflare's REST
 * API on loopback, and an object shaped like the `AI` binding.
 */
import assert from "node:assert/strict";
import { errorMessageOf, readEvents, testApp, withoutErrorLogs } from "./helpers.ts";
import {
  FAKE_ACCOUNT_ID,
  FAKE_API_TOKEN,
  fakeAiBinding,
  startWorkersAiRestFake,
} from "../helpers/workers_ai_fake.ts";
import { createSiftApp } from "../../app.ts";

const MODEL = "@cf/baai/bge-reranker-base";
const DOCUMENTS = ["alpha passage", "beta passage", "gamma passage", "delta passage"];
/** The fake's scores for DOCUMENTS, in input order: its ranking is 2, 0, 3, 1. */
const SCORES = [0.4, 0.05, 0.9, 0.2];

function restEnv(apiBaseUrl: string) {
  return {
    DEMO_CORPUS: "false",
    CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
    CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
    CLOUDFLARE_API_BASE_URL: apiBaseUrl,
  };
}

type CohereBody = {
  id: string;
  results: { index: number; relevance_score: number; document?: { text: string } }[];
  meta: { api_version: { version: string } };
  discarded: unknown[];
};

Deno.test("/v2/rerank with @cf/baai/bge-reranker-base sends the documented body with the token and answers in the fake's order, Cohere's shape", async () => {
  const fake = startWorkersAiRestFake({ scorer: () => SCORES });
  try {
    const { post } = testApp(restEnv(fake.apiBaseUrl));
    const response = await post("/v2/rerank", {
      model: MODEL,
      query: "which passage?",
      documents: DOCUMENTS,
      top_n: 3,
      return_documents: true,
    });
    assert.equal(response.status, 200);
    const body = await response.json() as CohereBody;
    assert.deepEqual(body.results.map((result) => result.index), [2, 0, 3]);
    assert.deepEqual(body.results.map((result) => result.relevance_score), [0.9, 0.4, 0.2]);
    assert.deepEqual(body.results[0]!.document, { text: "gamma passage" });
    assert.equal(body.meta.api_version.version, "2");
    assert.deepEqual(body.discarded, []);

    assert.equal(fake.requests.length, 1);
    const [sent] = fake.requests;
    assert.equal(sent!.method, "POST");
    assert.equal(sent!.path, `/client/v4/accounts/${FAKE_ACCOUNT_ID}/ai/run/${MODEL}`);
    assert.equal(sent!.headers.authorization, `Bearer ${FAKE_API_TOKEN}`);
    assert.deepEqual(sent!.body, {
      query: "which passage?",
      contexts: DOCUMENTS.map((text) => ({ text })),
    });
  } finally {
    await fake.close();
  }
});

Deno.test("raw scores outside [0, 1] become Cohere scores through the logistic, order kept", async () => {
  const fake = startWorkersAiRestFake({ scorer: () => [-2, 3.5, 0.5, 7] });
  try {
    const { post } = testApp(restEnv(fake.apiBaseUrl));
    const body = await (await post("/v2/rerank", {
      model: MODEL,
      query: "q",
      documents: DOCUMENTS,
    })).json() as CohereBody;
    assert.deepEqual(body.results.map((result) => result.index), [3, 1, 2, 0]);
    for (const result of body.results) {
      assert.ok(result.relevance_score > 0 && result.relevance_score < 1);
    }
    assert.ok(Math.abs(body.results[0]!.relevance_score - 1 / (1 + Math.exp(-7))) < 1e-12);
  } finally {
    await fake.close();
  }
});

Deno.test("/v1/rerank with model answers sift's native shape with the cross-encoder's cost", async () => {
  const fake = startWorkersAiRestFake({ scorer: () => SCORES });
  try {
    const { post } = testApp(restEnv(fake.apiBaseUrl));
    const response = await post("/v1/rerank", {
      model: MODEL,
      query: "which passage?",
      documents: DOCUMENTS.map((text, i) => ({ id: `d${i}`, text })),
    });
    assert.equal(response.status, 200);
    const body = await response.json() as {
      model: string;
      results: { index: number; id: string; relevance_score: number; scores: null }[];
      usage: { tokens_in: number; cost_usd: number };
      degraded: boolean;
    };
    assert.equal(body.model, MODEL);
    assert.deepEqual(body.results.map((result) => result.id), ["d2", "d0", "d3", "d1"]);
    assert.ok(body.results.every((result) => result.scores === null));
    assert.ok(body.usage.tokens_in > 0);
    assert.ok(body.usage.cost_usd > 0 && body.usage.cost_usd < 1e-4, String(body.usage.cost_usd));
    assert.equal(body.degraded, false);
  } finally {
    await fake.close();
  }
});

Deno.test("rerank.prefilter: the cross-encoder keeps top_n, the LLM strategy ranks only those", async () => {
  const fake = startWorkersAiRestFake({ scorer: () => SCORES });
  try {
    const { post } = testApp(restEnv(fake.apiBaseUrl));
    const response = await post("/v1/rerank", {
      query: "which passage?",
      documents: DOCUMENTS,
      strategy: "relevance",
      prefilter: { model: MODEL, top_n: 2 },
    });
    assert.equal(response.status, 200);
    const body = await response.json() as {
      results: { index: number }[];
      discarded: { index: number; reason: string }[];
      prefilter: { model: string; kept: number; of: number };
      usage: { llm_calls: number; cost_usd: number };
    };
    assert.deepEqual(body.prefilter, { model: MODEL, kept: 2, of: 4 });
    const ranked = [...body.results.map((r) => r.index), ...body.discarded.map((d) => d.index)];
    assert.deepEqual(ranked.toSorted(), [0, 1, 2, 3], "every document is accounted for");
    for (const index of body.results.map((result) => result.index)) {
      assert.ok([2, 0].includes(index), `document ${index} passed the prefilter`);
    }
    const cut = body.discarded.filter((entry) => /prefilter/.test(entry.reason));
    assert.deepEqual(cut.map((entry) => entry.index).toSorted(), [1, 3]);
    assert.equal(body.usage.llm_calls, 1);
    // The offline LLM costs nothing: what is left is the cross-encoder's share, priced.
    assert.ok(body.usage.cost_usd > 0 && body.usage.cost_usd < 1e-4, String(body.usage.cost_usd));
  } finally {
    await fake.close();
  }
});

Deno.test("a cross-encoder model without Workers AI configured is a 400 naming the field", async () => {
  const { post } = testApp({ DEMO_CORPUS: "false" });
  for (
    const [path, body, field] of [
      ["/v2/rerank", { model: MODEL, query: "q", documents: ["a"] }, "model"],
      ["/v1/rerank", { model: MODEL, query: "q", documents: ["a"] }, "model"],
      [
        "/v1/rerank",
        { query: "q", documents: ["a"], prefilter: { model: MODEL, top_n: 1 } },
        "prefilter.model",
      ],
    ] as const
  ) {
    const response = await post(path, body);
    assert.equal(response.status, 400, path);
    assert.match(
      errorMessageOf(await response.json()),
      new RegExp(`^${field.replace(".", "\\.")}: .*CLOUDFLARE_ACCOUNT_ID`),
    );
  }
  const both = await post("/v1/rerank", {
    model: MODEL,
    strategy: "one-turn",
    query: "q",
    documents: ["a"],
  });
  assert.equal(both.status, 400);
  assert.match((await both.json() as { error: { message: string } }).error.message, /^strategy:/);
});

Deno.test("Cloudflare's error envelope becomes sift's 502, its message kept out of the reply", async () => {
  for (
    const [status, pattern] of [
      [429, /rate limiting/],
      [500, /failed \(status 500, code 3040\)/],
    ] as const
  ) {
    const fake = startWorkersAiRestFake({ fail: { status, code: 3040 } });
    try {
      const { post } = testApp(restEnv(fake.apiBaseUrl));
      const response = await withoutErrorLogs(() =>
        post("/v2/rerank", { model: MODEL, query: "q", documents: ["a"] })
      );
      assert.equal(response.status, 502);
      const text = await response.text();
      assert.match(text, pattern);
      assert.doesNotMatch(text, /fake failure/);
    } finally {
      await fake.close();
    }
  }
  const fake = startWorkersAiRestFake();
  try {
    const { post } = testApp({ ...restEnv(fake.apiBaseUrl), CLOUDFLARE_API_TOKEN: "wrong" });
    const response = await withoutErrorLogs(() =>
      post("/v2/rerank", { model: MODEL, query: "q", documents: ["a"] })
    );
    assert.equal(response.status, 502);
    assert.match(await response.text(), /refused sift's credentials \(status 401\)/);
  } finally {
    await fake.close();
  }
});

Deno.test("on Workers the AI binding runs the reranker with the documented inputs (no key)", async () => {
  const binding = fakeAiBinding({ scorer: () => SCORES });
  const app = createSiftApp();
  const response = await app.request("/v2/rerank", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, query: "which passage?", documents: DOCUMENTS }),
  }, { DEMO_CORPUS: "false", AI: binding });
  assert.equal(response.status, 200);
  const body = await response.json() as CohereBody;
  assert.deepEqual(body.results.map((result) => result.index), [2, 0, 3, 1]);
  assert.deepEqual(binding.calls, [{
    model: MODEL,
    inputs: { query: "which passage?", contexts: DOCUMENTS.map((text) => ({ text })) },
  }]);
});

Deno.test("/v1/query with rerank.prefilter: the cross-encoder cuts the retrieved, the rerank step prices both stages", async () => {
  const fake = startWorkersAiRestFake();
  try {
    const { post } = testApp({ ...restEnv(fake.apiBaseUrl), DEMO_CORPUS: "true" });
    const response = await post("/v1/query", {
      query: "How does sift rerank passages?",
      pipeline: {
        retrieval: { top_k: 10 },
        rerank: { strategy: "one-turn", prefilter: { model: MODEL, top_n: 4 } },
      },
    });
    assert.equal(response.status, 200);
    const events = await readEvents(response);
    const reranked = events.find((event) => event.event === "rerank-end")!.data as {
      results: unknown[];
      discarded: { reason: string }[];
    };
    assert.ok(reranked.results.length <= 3);
    assert.equal(reranked.discarded.filter((entry) => /prefilter/.test(entry.reason)).length, 6);
    const usage = events.find((event) => event.event === "usage")!.data as {
      steps: { name: string; cost_usd: number | null }[];
    };
    const rerankStep = usage.steps.find((step) => step.name === "rerank")!;
    assert.ok(
      rerankStep.cost_usd! > 0,
      "the cross-encoder's share is priced; the offline LLM's is 0",
    );
    const run = fake.requests.filter((request) => request.path.endsWith(`/ai/run/${MODEL}`));
    assert.equal(run.length, 1);
    assert.equal((run[0]!.body as { contexts: unknown[] }).contexts.length, 10);
  } finally {
    await fake.close();
  }
});
