import assert from "node:assert/strict";
import { type FakeCall, fakeLlm } from "../helpers/fake_llm.ts";
import { dedupeQuestions, jaccard, normalizeQuestion } from "../../functions/judge/dedupe.ts";
import { cleanQuestions, generateSyntheticQueries } from "../../functions/judge/synthetic.ts";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import {
  questionFor,
  syntheticQuestions,
} from "../../providers/offline/tasks/synthetic-queries.ts";

Deno.test("normalizeQuestion() ignores case, whitespace and punctuation", () => {
  assert.equal(
    normalizeQuestion("  What IS  BM25's k1?! "),
    normalizeQuestion("what is bm25 s k1"),
  );
});

Deno.test("jaccard() is shared over all tokens", () => {
  assert.equal(jaccard(new Set(["a", "b"]), new Set(["b", "c"])), 1 / 3);
  assert.equal(jaccard(new Set(), new Set()), 1);
});

Deno.test("dedupeQuestions() keeps the first of exact and near duplicates, in order", () => {
  const kept = dedupeQuestions([
    { question: "How does BM25 saturate term frequency?", model: "m1" },
    { question: "how does bm25 saturate term frequency", model: "m2" },
    { question: "How does BM25 saturate the term frequency?", model: "m2" },
    { question: "What is BM25?", model: "m1" },
    { question: "What is BM25 used for?", model: "m2" },
  ]);
  assert.deepEqual(kept.map((item) => [item.question, item.model]), [
    ["How does BM25 saturate term frequency?", "m1"],
    ["What is BM25?", "m1"],
    ["What is BM25 used for?", "m2"],
  ]);
});

Deno.test("cleanQuestions() strips numbering, bullets and quotes; drops blanks and tiny lines", () => {
  assert.deepEqual(
    cleanQuestions(['1. "What is RRF?"', "- How is k chosen?", "Q3: Why fuse?", "2. ", "ok"]),
    ["What is RRF?", "How is k chosen?", "Why fuse?"],
  );
});

type Call = FakeCall;

function fakeWriter(reply: (call: Call) => string | number, structured = false) {
  const { llm, calls } = fakeLlm(reply, {
    model: "writer",
    structured,
    usage: { prompt: 5, completion: 3 },
  });
  return {
    deps: { llm, cache: new ResilientCache(new MemoryCache(), { onError: () => {} }) },
    calls,
  };
}

const PASSAGES = [{ text: "RRF fuses rankings with k = 60.", title: "RRF" }, {
  text: "BM25 ranks.",
}];

Deno.test("generateSyntheticQueries() asks every model about every passage and pools the questions", async () => {
  const { deps, calls } = fakeWriter(({ model, user }) =>
    user.includes("RRF")
      ? `Sure:\n1. What is the RRF constant k?\n2. How does RRF fuse rankings (${model})?`
      : "1. What does BM25 rank?\n2. what does BM25 rank"
  );
  const result = await generateSyntheticQueries(deps, {
    passages: PASSAGES,
    examples: ["Which TLE4971 sensors come in TISON-8-6?"],
    per_passage: 2,
    models: ["m1", "m2"],
  });
  assert.equal(calls.length, 4);
  assert.deepEqual(calls.map((call) => call.model).sort(), ["m1", "m1", "m2", "m2"]);
  assert.match(calls[0]!.system, /Write 2 questions/);
  assert.match(
    calls[0]!.user,
    /<examples>\n- Which TLE4971 sensors come in TISON-8-6\?\n<\/examples>/,
  );
  assert.deepEqual(result.queries, [
    { question: "What is the RRF constant k?", passage_index: 0, model: "m1" },
    { question: "How does RRF fuse rankings (m1)?", passage_index: 0, model: "m1" },
    { question: "How does RRF fuse rankings (m2)?", passage_index: 0, model: "m2" },
    { question: "What does BM25 rank?", passage_index: 1, model: "m1" },
  ]);
  assert.equal(result.degraded, false);
  assert.deepEqual(result.usage, { tokens_in: 20, tokens_out: 12 });
});

Deno.test("generateSyntheticQueries() reads {questions} in structured mode; a failed call degrades", async () => {
  const { deps, calls } = fakeWriter(
    ({ user }) => user.includes("RRF") ? '{"questions": ["What is k in RRF?"]}' : 500,
    true,
  );
  const result = await generateSyntheticQueries(deps, { passages: PASSAGES });
  assert.ok(calls.every((call) => call.json && call.model === "writer"));
  assert.match(calls[0]!.system, /Write 3 questions/);
  assert.deepEqual(result.queries.map((q) => q.question), ["What is k in RRF?"]);
  assert.equal(result.degraded, true);
});

Deno.test("the offline writer turns sentences into standalone What/How questions", () => {
  assert.equal(questionFor("BM25 is a lexical ranking function."), "What is BM25?");
  assert.equal(
    questionFor("Reciprocal rank fusion combines several rankings into one."),
    "How does Reciprocal rank fusion combine several rankings into one?",
  );
  assert.equal(
    questionFor("The model uses a blank-infilling objective."),
    "How does the model use a blank-infilling objective?",
  );
  assert.equal(questionFor("It was trained on 96 nodes."), undefined, "needs context");
  const questions = syntheticQuestions(
    "GLM-130B is a bilingual language model with 130 billion parameters. It was trained on " +
      "96 DGX-A100 nodes. The constant k is usually 60.",
    5,
  );
  assert.deepEqual(questions, ["What is GLM-130B?", "What is the constant k?"]);
});
