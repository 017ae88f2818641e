import assert from "node:assert/strict";
import { costOf, priceTable, totalCost } from "./cost.ts";
import { DEFAULT_PRICES, PRICES_DATE } from "./prices.ts";
import { readConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import { pricedSteps } from "./steps.ts";

Deno.test("costOf() prices tokens per million, in and out at their own rates", () => {
  const prices = priceTable();
  assert.equal(costOf("gpt-4o-mini", { tokens_in: 1_000_000, tokens_out: 0 }, prices), 0.15);
  assert.equal(costOf("gpt-4o-mini", { tokens_in: 2000, tokens_out: 500 }, prices), 0.0006);
  assert.equal(costOf("sift-offline", { tokens_in: 900, tokens_out: 90 }, prices), 0);
  assert.equal(costOf("no-such-model", { tokens_in: 10, tokens_out: 1 }, prices), null);
  assert.equal(costOf("no-such-model", { tokens_in: 0, tokens_out: 0 }, prices), 0);
});

Deno.test("Workers AI prices are its neurons converted at $0.011 per 1,000", () => {
  // The pricing page: 4119 neurons ($0.045) per M input tokens, 34868 ($0.384) per M output.
  assert.deepEqual(DEFAULT_PRICES["@cf/meta/llama-3.1-8b-instruct-fp8-fast"], {
    input: 0.0453,
    output: 0.3835,
  });
  assert.equal(DEFAULT_PRICES["@cf/baai/bge-reranker-base"]!.input, 0.0031);
  assert.match(PRICES_DATE, /^\d{4}-\d{2}-\d{2}$/);
});

Deno.test("totalCost() is unknown when any step's cost is", () => {
  assert.equal(totalCost([0.1, 0.2, 0]), 0.3);
  assert.equal(totalCost([0.1, null]), null);
  assert.equal(totalCost([]), 0);
});

Deno.test("MODEL_PRICES adds and overrides prices; a bad value names the variable", () => {
  const config = readConfig({
    MODEL_PRICES: '{"my-model": {"input": 1, "output": 3}, "gpt-4o": {"input": 0, "output": 0}}',
  });
  assert.deepEqual(config.prices["my-model"], { input: 1, output: 3 });
  assert.deepEqual(config.prices["gpt-4o"], { input: 0, output: 0 });
  assert.deepEqual(config.prices["gpt-4o-mini"], DEFAULT_PRICES["gpt-4o-mini"]);
  for (
    const [bad, reason] of [
      ["not json", /MODEL_PRICES: must be JSON/],
      ['{"m": {"input": -1, "output": 0}}', /MODEL_PRICES: m\.input: must be at least 0/],
      ['{"m": {"input": 1}}', /MODEL_PRICES: m\.output/],
      ['{"m": {"input": 1, "output": 1, "cached": 1}}', /MODEL_PRICES: m/],
      ["[1]", /MODEL_PRICES: must be an object/],
    ] as const
  ) {
    assert.throws(() => readConfig({ MODEL_PRICES: bad }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, reason);
      return true;
    }, bad);
  }
});

Deno.test("pricedSteps() keeps a step's own cost and prices the rest at the LLM's rate", () => {
  const config = readConfig({ LLM_API_KEY: "k", LLM_MODEL: "gpt-4o-mini" });
  const step = { started_ms: 0, ended_ms: 1, via: "in-process" as const };
  const priced = pricedSteps([
    { ...step, name: "rerank", tokens_in: 100, tokens_out: 0, cost_usd: 0.5 },
    { ...step, name: "answer", tokens_in: 1_000_000, tokens_out: 1_000_000 },
  ], config);
  assert.deepEqual(priced.steps.map((s) => s.cost_usd), [0.5, 0.75]);
  assert.equal(priced.cost_usd, 1.25);
  const unknown = pricedSteps(priced.steps.slice(1).map(({ cost_usd: _, ...s }) => s), {
    ...config,
    llm: { ...config.llm, model: "unpriced" },
  });
  assert.equal(unknown.cost_usd, null);
});
