import assert from "node:assert/strict";
import { EMPTY_ENV, type ErrorBody, testApp } from "./helpers.ts";

Deno.test("POST /v1/evaluations above EVAL_MAX_STEPS (questions × variants) is a 400 that says so", async () => {
  const { post } = testApp({ ...EMPTY_ENV, EVAL_MAX_STEPS: "3" });
  const questions = [{ question: "What is BM25?" }, { question: "What is RRF?" }];
  const over = await post("/v1/evaluations", {
    dataset: { questions },
    variants: "none,one-turn",
  });
  assert.equal(over.status, 400);
  assert.match(
    ((await over.json()) as ErrorBody).error.message,
    /4 questions × variants .*\(EVAL_MAX_STEPS\)/,
  );
  const within = await post("/v1/evaluations", {
    dataset: { questions },
    variants: "none,one-turn",
    limit: 1,
  });
  assert.equal(within.status, 202);
  await new Promise((resolve) => setTimeout(resolve, 50));
});
