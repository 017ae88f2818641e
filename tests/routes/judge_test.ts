import assert from "node:assert/strict";
import { mountJudge } from "../../functions/judge/app.ts";
import { createServer } from "../../compose/server.ts";
import { Runtime } from "../../compose/runtime.ts";
import type { ErrorBody } from "./helpers.ts";

/** The judge routes alone, on the offline model (app.ts mounts them in the all-in-one app). */
function judgeApp(env: Record<string, string> = {}) {
  const app = createServer({ runtime: new Runtime(), mounts: [mountJudge], serves: ["JUDGE"] });
  return (path: string, body: unknown) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }, { DEMO_CORPUS: "false", ...env });
}

const QUERY = "How does reciprocal rank fusion combine rankings?";
const DOCUMENTS = [
  {
    id: "rrf",
    text:
      "Reciprocal rank fusion combines several rankings into one. The constant k is usually 60.",
    metadata: { title: "Fusion" },
  },
  "BM25 is a lexical ranking function with term frequency saturation.",
  "Cats are small domesticated mammals.",
];
const GOOD = "Reciprocal rank fusion combines several rankings into one, with k usually 60 [1].";
const POOR = "Cats are small mammals.";

async function expect400(
  post: ReturnType<typeof judgeApp>,
  path: string,
  body: unknown,
  field: RegExp,
) {
  const response = await post(path, body);
  assert.equal(response.status, 400, `${path} ${JSON.stringify(body)}`);
  const error = (await response.json() as ErrorBody).error;
  assert.equal(error.type, "invalid_request");
  assert.match(error.message, field);
}

Deno.test("judge routes answer 400 naming the field that is wrong", async () => {
  const post = judgeApp();
  await expect400(post, "/v1/judge/retrieval", { documents: ["x"] }, /^query: /);
  await expect400(post, "/v1/judge/retrieval", { query: "q", documents: [] }, /^documents: /);
  await expect400(
    post,
    "/v1/judge/retrieval",
    { query: "q", documents: [{ text: "" }] },
    /documents\.0/,
  );
  await expect400(post, "/v1/judge/answer", { query: "q" }, /^answer: /);
  await expect400(
    post,
    "/v1/judge/answer",
    { query: "q", answer: "a", relevance_threshold: 3 },
    /^relevance_threshold: must be 0, 1 or 2/,
  );
  await expect400(post, "/v1/judge/pairwise", { query: "q", answer_a: "a" }, /^answer_b: /);
  await expect400(
    post,
    "/v1/judge/pairwise",
    { query: "q", answer_a: " ", answer_b: "b" },
    /^answer_a: must not be empty/,
  );
  await expect400(post, "/v1/judge/similarity", { answer: "a" }, /^reference: /);
  await expect400(post, "/v1/judge/synthetic-queries", { passages: [] }, /^passages: /);
  await expect400(
    post,
    "/v1/judge/synthetic-queries",
    { passages: ["p"], per_passage: 11 },
    /^per_passage: must be at most 10/,
  );
  await expect400(
    post,
    "/v1/judge/synthetic-queries",
    { passages: ["p"], models: [] },
    /^models: /,
  );
  await expect400(post, "/v1/judge/pairwise", "{not json", /^body: must be valid JSON/);
});

for (const structured of ["true", "false"]) {
  const mode = structured === "true" ? "structured" : "text";

  Deno.test(`POST /v1/judge/retrieval (${mode}) grades each document with a reason and reports precision`, async () => {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    const response = await post("/v1/judge/retrieval", { query: QUERY, documents: DOCUMENTS });
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.deepEqual(
      body.judgments.map((j: { index: number; score: number }) => [j.index, j.score]),
      [
        [0, 2],
        [1, 1],
        [2, 0],
      ],
    );
    for (const judgment of body.judgments) assert.match(judgment.reason, /^The document contains/);
    assert.equal(body.precision, 2 / 3);
    assert.equal(body.degraded, false);
    assert.ok(body.usage.tokens_in > 0 && body.usage.tokens_out > 0);
  });

  Deno.test(`POST /v1/judge/answer (${mode}) scores the four aspects 0-2`, async () => {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    const response = await post("/v1/judge/answer", {
      query: QUERY,
      answer: GOOD,
      documents: DOCUMENTS,
    });
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.deepEqual(body.scores, { relevance: 2, accuracy: 2, completeness: 2, precision: 2 });
    assert.equal(typeof body.reasoning, "string");
    assert.equal(body.degraded, false);
  });

  Deno.test(`POST /v1/judge/pairwise (${mode}) returns the contract's fields and the better answer`, async () => {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    const response = await post("/v1/judge/pairwise", {
      query: QUERY,
      answer_a: POOR,
      answer_b: GOOD,
      documents: DOCUMENTS,
    });
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.deepEqual(Object.keys(body).sort(), [
      "degraded",
      "orders_disagree",
      "reasoning",
      "usage",
      "verdicts",
      "winner",
    ]);
    assert.deepEqual([body.winner, body.verdicts, body.orders_disagree], ["B", ["B", "B"], false]);
  });

  Deno.test(`POST /v1/judge/similarity (${mode}) rates 0-5 against the reference`, async () => {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    const same = await (await post("/v1/judge/similarity", { answer: GOOD, reference: GOOD }))
      .json();
    assert.deepEqual([same.score, same.degraded], [5, false]);
    const other = await (await post("/v1/judge/similarity", {
      query: QUERY,
      answer: POOR,
      reference: GOOD,
    })).json();
    assert.equal(other.score, 0);
  });

  Deno.test(`POST /v1/judge/synthetic-queries (${mode}) writes deduplicated questions per passage`, async () => {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    const response = await post("/v1/judge/synthetic-queries", {
      passages: [DOCUMENTS[0], {
        text: "GLM-130B is a bilingual language model. It has 130B parameters.",
      }],
      examples: ["What is RRF?"],
      per_passage: 2,
      models: ["writer-1", "writer-2"],
    });
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.deepEqual(body.queries, [
      {
        question: "How does Reciprocal rank fusion combine several rankings into one?",
        passage_index: 0,
        model: "writer-1",
      },
      { question: "What is the constant k?", passage_index: 0, model: "writer-1" },
      { question: "What is GLM-130B?", passage_index: 1, model: "writer-1" },
    ], "the second model's identical questions are duplicates");
    assert.equal(body.degraded, false);
  });
}
