/**
 * Strategy tot against a real OpenAI-compatible HTTP server that answers in
 * the text format the way a sloppy model does: prose around the answer,
 * markdown, "9/10", "60%", numbers out of range, a repeated dimension, words
 * instead of numbers, empty replies and failed calls. sift must answer 200
 * with the tree the documented rules give, never a 500.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { readEvents } from "../routes/helpers.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";
import {
  serveTextModel,
  type TextModelCall,
  type TextModelReply,
} from "../helpers/text_model_server.ts";

type Level = {
  dimensions: [string, string];
  chosen_by: string;
  thresholds: Record<string, number>;
  candidates: { index: number; scores: Record<string, number>; kept: boolean; degraded?: true }[];
  degraded?: true;
};
type TotBody = {
  results: { index: number; relevance_score: number | null }[];
  discarded: { index: number; reason: string }[];
  tree: { levels: Level[] };
  degraded: boolean;
  warnings?: string[];
};

const SIX = RERANK_DOCUMENTS.slice(0, 6);

/** Which of SIX a scoring prompt is about (a correction turn is about its first message's). */
function documentOf(call: TextModelCall): number {
  const { messages } = call.body as { messages: { role: string; content: string }[] };
  const asked = messages.filter((message) => message.role === "user")
    .map((message) => message.content).join("\n");
  return SIX.findIndex((document) => asked.includes(document.text.slice(0, 40)));
}

const QUALITY_REPLIES = ["Score: 9/10", "0.3", "**0.85**", "pretty good, I think", "60%", "1.7"];
const SIMILARITY_REPLIES = ["0.95", "0.2", "Rating: 0.9 (high)", "0.1", "-0.2", ""];

/** Replies by prompt id, as a text-format model that ignores half the instructions writes them. */
const sloppy: TextModelReply = (call) => {
  const id = call.prompt.split("@")[0];
  if (id === "tot-agent") {
    return call.system.includes("- fluency:")
      ? "Happy to help! Fluency looks similar everywhere.\n\n**Dimensions:** Accuracy, accuracy, lexical"
      : "I'd skip stylistic here.\nDimensions: `semantic` and Lexically";
  }
  if (id === "tot-quality") return QUALITY_REPLIES[documentOf(call)] ?? "0";
  if (id === "tot-similarity") return SIMILARITY_REPLIES[documentOf(call)] ?? "0";
  if (id === "tot-threshold") {
    return call.system.includes("accuracy")
      ? "Sure.\n- accuracy: 0.5\n- completeness = 50%\nThat keeps most of them."
      : "0.5, 0.5";
  }
  if (id === "answer") return "BM25 ranks documents by term statistics [1].";
  return "I am not sure what you mean.";
};

function siftAgainst(baseURL: string) {
  const app = createSiftApp();
  const env = {
    LLM_BASE_URL: baseURL,
    LLM_API_KEY: "x",
    LLM_STRUCTURED_OUTPUTS: "false",
    DEMO_CORPUS: "false",
  };
  return async (path: string, body: unknown) =>
    await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
}

async function rerankTot(post: ReturnType<typeof siftAgainst>): Promise<TotBody> {
  const response = await post("/v1/rerank", {
    query: RERANK_QUERY,
    documents: SIX,
    strategy: "tot",
  });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as TotBody;
}

Deno.test("tot against a sloppy text-format server follows the numbers written and degrades what is off the scale", async () => {
  await using model = serveTextModel(sloppy);
  const body = await rerankTot(siftAgainst(model.baseURL));
  const [first, second] = body.tree.levels;

  // "Accuracy, accuracy, lexical" names one level-1 dimension: the default pair completes it.
  assert.deepEqual([first!.dimensions, first!.chosen_by], [
    ["accuracy", "completeness"],
    "default",
  ]);
  assert.deepEqual([second!.dimensions, second!.chosen_by], [["semantic", "lexical"], "agent"]);
  assert.deepEqual(first!.thresholds, { accuracy: 0.5, completeness: 0.5 });
  assert.deepEqual(second!.thresholds, { semantic: 0.5, lexical: 0.5 });
  // 9/10, 0.3, **0.85**, "pretty good, I think" (no value, even after a correction: no score,
  // never 0; a grade word such as "excellent" would be read as the scale's top),
  // 60%, 1.7 (off the 0-1 scale: unusable, no score).
  assert.deepEqual(
    first!.candidates.map((c) => [c.index, c.scores.accuracy, c.kept, c.degraded ?? false]),
    [
      [0, 0.9, true, false],
      [1, 0.3, false, false],
      [2, 0.85, true, false],
      [3, undefined, false, true],
      [4, 0.6, true, false],
      [5, undefined, false, true],
    ],
  );
  // -0.2 is off the scale: unusable, no score.
  assert.deepEqual(
    second!.candidates.map((c) => [c.index, c.scores.semantic, c.kept, c.degraded ?? false]),
    [[0, 0.95, true, false], [2, 0.9, true, false], [4, undefined, false, true]],
  );
  // The unscored follow the ranked, in retrieval order, with no score: not discarded on a 0.
  assert.deepEqual(body.results.map((r) => [r.index, r.relevance_score]), [
    [0, 0.95],
    [2, 0.9],
    [3, null],
    [4, null],
    [5, null],
  ]);
  assert.deepEqual(body.discarded, [{ index: 1, reason: "level 1: accuracy 0.3 < 0.5" }]);
  assert.equal(body.degraded, true);
  assert.ok(body.warnings!.some((w) => /^level 1: the agent's reply named fewer than 2/.test(w)));
  assert.ok(model.calls.every((call) => !("response_format" in call.body)), "text mode");
});

Deno.test("tot against a server whose evaluator keeps no one: each level keeps the best half, degraded", async () => {
  await using model = serveTextModel((call) => {
    const id = call.prompt.split("@")[0];
    if (id === "tot-threshold") return "Thresholds: 1.0 and 1.0";
    if (id === "tot-agent") return "";
    return (0.3 + 0.1 * documentOf(call)).toFixed(1);
  });
  const body = await rerankTot(siftAgainst(model.baseURL));
  const [first, second] = body.tree.levels;
  assert.ok(first!.degraded && second!.degraded);
  assert.deepEqual(first!.thresholds, { accuracy: 1, completeness: 1 });
  // The best half by mean score: documents 5, 4, 3 (scores 0.8, 0.7, 0.6), then 5 and 4.
  assert.deepEqual(second!.candidates.map((c) => c.index), [3, 4, 5]);
  assert.deepEqual(body.results.map((r) => r.index), [5, 4]);
  assert.ok(body.warnings!.some((w) => /level 2: no candidate met every threshold/.test(w)));
  assert.match(body.discarded[0]!.reason, /best half by mean score/);
});

Deno.test("tot against a server that refuses the agent and evaluator calls still answers 200", async () => {
  await using model = serveTextModel((call) => {
    const id = call.prompt.split("@")[0];
    if (id === "tot-agent" || id === "tot-threshold") return 400;
    return documentOf(call) % 2 === 0 ? "0.8" : "0.4";
  });
  const body = await rerankTot(siftAgainst(model.baseURL));
  assert.deepEqual(body.tree.levels.map((l) => l.chosen_by), ["default", "default"]);
  // The fallback thresholds keep the best half: the even documents, scored 0.8.
  assert.deepEqual(body.tree.levels[0]!.thresholds, { accuracy: 0.8, completeness: 0.8 });
  assert.deepEqual(body.results.map((r) => r.index), [0, 2, 4]);
  assert.ok(body.warnings!.some((w) => /the evaluator call failed/.test(w)));
});

Deno.test("a whole query with rerank strategy tot through the text-format server", async () => {
  await using model = serveTextModel(sloppy);
  const post = siftAgainst(model.baseURL);
  const ingest = await post("/v1/documents", {
    documents: SIX.map(({ id, text, metadata }) => ({ id, text, title: metadata.title })),
  });
  assert.equal(ingest.status, 201, await ingest.clone().text());
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "tot" } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const names = events.map((event) => event.event);
  assert.ok(!names.includes("error"), names.join(","));
  const reranked = events.find((event) => event.event === "rerank-end")?.data as TotBody;
  assert.equal(reranked.tree.levels.length, 2);
  assert.ok(reranked.results.length >= 1);
  const answer = events.find((event) => event.event === "answer-end")?.data as { answer: string };
  assert.match(answer.answer, /BM25/);
});
