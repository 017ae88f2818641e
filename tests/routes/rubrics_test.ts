import assert from "node:assert/strict";
import { rubricFor } from "../../providers/offline/tasks/rubric.ts";
import { rubricSchema } from "../../shared/rerank/rubric.ts";
import { type ErrorBody, testApp } from "./helpers.ts";

type Criterion = { name: string; definition: string; high: string; low: string; weight: number };
type RubricsBody = {
  rubric: {
    criteria: Criterion[];
    relevance: { definition: string };
    relevance_threshold: number;
    tie_break: string;
  };
  prompt: string;
  cached: boolean;
  degraded: boolean;
};

const QUERY = "How do PostgreSQL and MySQL differ in how they handle replication?";

async function rubrics(post: ReturnType<typeof testApp>["post"], body: Record<string, unknown>) {
  const response = await post("/v1/rubrics", body);
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as RubricsBody;
}

const label = (name: string) => {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

Deno.test("POST /v1/rubrics returns a valid rubric, its rendered prompt and cached: false", async () => {
  const { post } = testApp();
  const body = await rubrics(post, { query: QUERY });
  assert.equal(body.cached, false);
  assert.equal(body.degraded, false);
  const { rubric } = body;
  assert.ok(rubric.criteria.length >= 1 && rubric.criteria.length <= 8);
  assert.equal(rubricSchema.safeParse(rubric).success, true, "a rubric the API would accept back");
  assert.ok(rubric.criteria.some((c) => c.name === "comparative_coverage"), "a comparison query");
  assert.ok(rubric.criteria.some((c) => c.name === rubric.tie_break));
  assert.ok(rubric.relevance.definition.length > 0);
  assert.ok(rubric.relevance_threshold >= 0 && rubric.relevance_threshold <= 10);
});

Deno.test("POST /v1/rubrics renders every criterion, its weight and the threshold into the prompt", async () => {
  const { post } = testApp();
  const { rubric, prompt } = await rubrics(post, { query: QUERY });
  for (const criterion of rubric.criteria) {
    assert.ok(prompt.includes(`[key: ${criterion.name}]`), criterion.name);
    assert.ok(prompt.includes(`weight ${criterion.weight}`), criterion.name);
    assert.ok(prompt.includes(criterion.definition), criterion.name);
    assert.ok(prompt.includes(`${criterion.weight} × ${label(criterion.name)}`), criterion.name);
  }
  assert.ok(prompt.includes(rubric.relevance.definition));
  assert.ok(prompt.includes(`Relevance below ${rubric.relevance_threshold} will be dropped`));
});

Deno.test("POST /v1/rubrics answers a second identical call from the cache, also for case, spacing and '?'", async () => {
  const { post } = testApp();
  const first = await rubrics(post, { query: QUERY });
  const second = await rubrics(post, { query: QUERY });
  assert.equal(second.cached, true);
  assert.deepEqual(second.rubric, first.rubric);
  assert.equal(second.prompt, first.prompt);

  const variant = await rubrics(post, {
    query: "  how do postgresql   and MYSQL differ in how they handle replication  ",
  });
  assert.equal(variant.cached, true);
  assert.deepEqual(variant.rubric, first.rubric);

  const other = await rubrics(post, { query: "What are the latest results on protein folding?" });
  assert.equal(other.cached, false, "another query is another entry");
});

Deno.test("POST /v1/rubrics relevance_only: true gives a rubric with no criteria, cached separately", async () => {
  const { post } = testApp();
  await rubrics(post, { query: QUERY });
  const body = await rubrics(post, { query: QUERY, relevance_only: true });
  assert.equal(body.cached, false, "not the full rubric's cache entry");
  assert.deepEqual(body.rubric.criteria, []);
  assert.equal(body.rubric.tie_break, "retrieval_rank");
  assert.match(body.rubric.relevance.definition, /PostgreSQL/);
  assert.ok(body.prompt.includes("no secondary criteria"));
  assert.equal((await rubrics(post, { query: QUERY, relevance_only: true })).cached, true);
});

Deno.test("POST /v1/rubrics picks criteria from the kind of query", async () => {
  const { post } = testApp();
  const cases: [string, string][] = [
    ["What are the latest results on protein structure prediction since AlphaFold 2?", "recency"],
    ["Should cities ban cars from their centres? What are the arguments?", "perspective_balance"],
    ["How do I set up TLS certificates for nginx?", "actionability"],
    [
      "How did the printing press change European society in the 15th century?",
      "historical_grounding",
    ],
  ];
  for (const [query, expected] of cases) {
    const { rubric } = await rubrics(post, { query });
    assert.ok(rubric.criteria.some((c) => c.name === expected), `${query} → ${expected}`);
  }
});

Deno.test("POST /v1/rubrics in text mode still returns a rubric and a text-format prompt", async () => {
  const { post } = testApp({ DEMO_CORPUS: "false", LLM_STRUCTURED_OUTPUTS: "false" });
  const body = await rubrics(post, { query: QUERY });
  assert.ok(body.rubric.criteria.length > 0);
  assert.match(body.prompt, /Doc: <document number>, Relevance: <final score>, Topicality:/);
});

Deno.test("POST /v1/rubrics with malformed model output falls back to a default rubric, degraded", async () => {
  const { post } = testApp({ DEMO_CORPUS: "false", OFFLINE_MODEL_FAULTS: "malformed=1" });
  const body = await rubrics(post, { query: QUERY });
  assert.equal(body.degraded, true);
  assert.ok(body.rubric.criteria.length > 0);
  assert.equal(rubricSchema.safeParse(body.rubric).success, true);
  // A degraded rubric is not cached: the next call asks the model again.
  assert.equal((await rubrics(post, { query: QUERY })).cached, false);
});

Deno.test("POST /v1/rubrics rejects a missing query and a non-boolean relevance_only with 400s", async () => {
  const { post } = testApp();
  for (
    const [body, expected] of [
      [{}, /^query: /],
      [{ query: "  " }, /^query: must not be empty/],
      [{ query: QUERY, relevance_only: "yes" }, /^relevance_only: must be true or false/],
    ] as const
  ) {
    const response = await post("/v1/rubrics", body);
    assert.equal(response.status, 400);
    assert.match((await response.json() as ErrorBody).error.message, expected);
  }
});

Deno.test('POST /v1/rubrics weighs every criterion 0.5 unless weights: "rubric" keeps the model\'s', async () => {
  const { post } = testApp();
  const paper = await rubrics(post, { query: QUERY });
  assert.deepEqual(
    paper.rubric.criteria.map((c) => c.weight),
    paper.rubric.criteria.map(() => 0.5),
  );
  assert.ok(paper.prompt.includes("weight 0.5"));
  const own = await rubrics(post, { query: QUERY, weights: "rubric" });
  assert.equal(own.cached, true, "one model call serves both");
  const written = rubricFor(QUERY).criteria.map((c) => [c.name, c.weight]);
  assert.deepEqual(own.rubric.criteria.map((c) => [c.name, c.weight]), written);
  assert.ok(written.some(([, weight]) => weight !== 0.5), "the offline model writes other weights");
  for (const criterion of own.rubric.criteria) {
    assert.ok(own.prompt.includes(`weight ${criterion.weight}`), criterion.name);
  }
  const response = await post("/v1/rubrics", { query: QUERY, weights: 1 });
  assert.equal(response.status, 400);
  assert.match((await response.json() as ErrorBody).error.message, /^weights: /);
});
