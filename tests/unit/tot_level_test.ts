/**
 * ToT-RAG's tree against a scripted model (the real `openai` SDK, an injected
 * `fetch`): each reply kind can be made strict, unusable or failing, and the
 * tree must degrade as documented instead of failing.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { rerankTot } from "../../functions/rerank/tot/tot.ts";
import { type FakeCall, fakeLlm, type FakeReply } from "../helpers/fake_llm.ts";

const QUERY = "How does BM25 rank documents?";
/** Quality and similarity scripted per document: d0 best, d3 worst. */
const DOCUMENTS = ["d0 text", "d1 text", "d2 text", "d3 text"].map((text) => ({ text }));
const SCORES: Record<string, number> = { d0: 0.9, d1: 0.7, d2: 0.5, d3: 0.2 };

function scoreOf(call: FakeCall): number {
  const doc = /<passage>\n(d\d)/.exec(call.user)?.[1] ?? "";
  return SCORES[doc] ?? 0;
}

/** A well-behaved text-format model, with any reply kind overridden. */
function script(overrides: Partial<Record<string, FakeReply>> = {}): FakeReply {
  return (call) => {
    const id = call.prompt.split("@")[0]!;
    const override = overrides[id];
    if (override) return override(call);
    if (id === "tot-agent") {
      return call.system.includes("- fluency:")
        ? "Dimensions: fluency, novelty"
        : "Dimensions: lexical, semantic";
    }
    if (id === "tot-threshold") {
      const names = [...call.system.matchAll(/dimensions: (\w+), (\w+)\./g)][0]!;
      return `${names[1]}: 0.5\n${names[2]}: 0.5`;
    }
    return String(scoreOf(call));
  };
}

function deps(reply: FakeReply, structured = false) {
  const fake = fakeLlm(reply, { model: "m", structured });
  return {
    deps: { llm: fake.llm, cache: new ResilientCache(new MemoryCache()) },
    calls: fake.calls,
  };
}

Deno.test("rerankTot() keeps those meeting every threshold at both levels, best first", async () => {
  const { deps: d, calls } = deps(script());
  const body = await rerankTot(d, { query: QUERY, documents: DOCUMENTS });
  assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2]);
  assert.deepEqual(body.discarded, [{ index: 3, reason: "level 1: fluency 0.2 < 0.5" }]);
  assert.deepEqual(body.tree.levels.map((l) => l.dimensions), [
    ["fluency", "novelty"],
    ["lexical", "semantic"],
  ]);
  assert.deepEqual(body.tree.levels[1]!.candidates.map((c) => c.index), [0, 1, 2]);
  assert.equal(body.degraded, false);
  // 2 agents + 2 thresholds + 4·2 level-1 scores + 3·2 level-2 scores.
  assert.equal(calls.length, 18);
  assert.deepEqual(body.usage, { tokens_in: 180, tokens_out: 36, llm_calls: 18, cached: false });
  const again = await rerankTot(d, { query: QUERY, documents: DOCUMENTS, top_n: 1 });
  assert.equal(again.usage.cached, true);
  assert.deepEqual(again.results.map((r) => r.index), [0]);
});

Deno.test("rerankTot() keeps the best half by mean score when no one meets the thresholds", async () => {
  const { deps: d } = deps(script({ "tot-threshold": () => "fluency: 0.95\nnovelty: 0.95" }));
  const body = await rerankTot(d, {
    query: QUERY,
    documents: DOCUMENTS,
    tot: { unit: "passage", dimensions: { level2: ["lexical", "semantic"] } },
  });
  const [first] = body.tree.levels;
  assert.equal(first!.degraded, true);
  assert.deepEqual(first!.candidates.map((c) => c.kept), [true, true, false, false]);
  assert.deepEqual(body.tree.levels[1]!.candidates.map((c) => c.index), [0, 1]);
  assert.equal(body.degraded, true);
  assert.ok(body.warnings?.some((w) => /no candidate met every threshold/.test(w)));
  assert.match(body.discarded[0]!.reason, /best half/);
});

Deno.test("rerankTot() uses pinned dimensions and makes no agent call for that level", async () => {
  const { deps: d, calls } = deps(script());
  const body = await rerankTot(d, {
    query: QUERY,
    documents: DOCUMENTS,
    tot: { unit: "passage", dimensions: { level1: ["conciseness", "accuracy"] } },
  });
  assert.deepEqual(body.tree.levels[0]!.dimensions, ["conciseness", "accuracy"]);
  assert.equal(body.tree.levels[0]!.chosen_by, "request");
  assert.equal(body.tree.levels[1]!.chosen_by, "agent");
  assert.equal(calls.filter((c) => c.prompt.startsWith("tot-agent@")).length, 1);
  const dimensionsScored = new Set(
    calls.filter((c) => c.prompt.startsWith("tot-quality@"))
      .map((c) => /^Dimension: (\w+)/m.exec(c.user)?.[1]),
  );
  assert.deepEqual([...dimensionsScored].sort(), ["accuracy", "conciseness"]);
});

Deno.test("rerankTot() falls back on the default pair and the half-keeping rule for unusable replies", async () => {
  const { deps: d } = deps(script({
    "tot-agent": () => "I would rather not choose.",
    "tot-threshold": () => "",
  }));
  const body = await rerankTot(d, { query: QUERY, documents: DOCUMENTS });
  const [first, second] = body.tree.levels;
  assert.deepEqual(first!.dimensions, ["accuracy", "completeness"]);
  assert.equal(first!.chosen_by, "default");
  assert.deepEqual(second!.dimensions, ["semantic", "lexical"]);
  // The best half (d0, d1) at 0.7 and up on both.
  assert.deepEqual(first!.thresholds, { accuracy: 0.7, completeness: 0.7 });
  assert.deepEqual(body.results.map((r) => r.index), [0]);
  assert.equal(body.degraded, true);
});

Deno.test("rerankTot() never counts a failed or unreadable score as 0: the candidate goes unscored, degraded", async () => {
  const { deps: d } = deps(script({
    "tot-quality": (call) =>
      call.user.includes("d1")
        ? 500
        : /Dimension: novelty/.test(call.user) && call.user.includes("d0")
        ? "pretty good, I think"
        : String(scoreOf(call)),
  }));
  const body = await rerankTot(d, { query: QUERY, documents: DOCUMENTS });
  const [first] = body.tree.levels;
  assert.deepEqual(first!.candidates[0], {
    index: 0,
    scores: { fluency: 0.9 },
    kept: false,
    degraded: true,
  });
  assert.deepEqual(first!.candidates[1]!.scores, {});
  assert.equal(first!.candidates[1]!.degraded, true);
  assert.equal(first!.degraded, true);
  assert.ok(
    body.warnings?.some((w) => /3 of 8 scores were unusable, even after a correction/.test(w)),
  );
  assert.deepEqual(body.readings, { asked: 8 + 2, unreadable: 3 });
  // The unscored follow the ranked ones, in retrieval order, with no score at all.
  assert.deepEqual(
    body.results.slice(-2).map((result) => [result.index, result.relevance_score, result.degraded]),
    [[0, null, true], [1, null, true]],
  );
  assert.ok(!body.discarded.some((entry) => entry.index <= 1), "not discarded on a made-up 0");
  // Agent 2, level-1 scores 8 and one correction for d0's "pretty good", thresholds 2, level 2's.
  assert.equal(body.usage.llm_calls, 2 + 8 + 1 + 2 + 2 * 1);
});

Deno.test("rerankTot() asks for json_schema in structured mode and reads the JSON", async () => {
  const { deps: d, calls } = deps((call) => {
    if (call.prompt.startsWith("tot-agent@")) {
      return call.system.includes("- fluency:")
        ? '{"dimensions": ["fluency", "novelty"]}'
        : '{"dimensions": ["semantic", "stylistic"]}';
    }
    if (call.prompt.startsWith("tot-threshold@")) {
      return call.system.includes("fluency")
        ? '{"thresholds": {"fluency": 0.6, "novelty": 0.6}}'
        : '{"thresholds": {"semantic": 0.8, "stylistic": 0.8}}';
    }
    return JSON.stringify({ score: scoreOf(call) });
  }, true);
  const body = await rerankTot(d, { query: QUERY, documents: DOCUMENTS });
  assert.ok(calls.every((call) => call.json), "every call sends json_schema");
  assert.deepEqual(body.tree.levels[1]!.dimensions, ["semantic", "stylistic"]);
  assert.deepEqual(body.results.map((r) => [r.index, r.relevance_score]), [[0, 0.9]]);
  assert.equal(body.degraded, false);
});

/** Thresholds at 0.5 for every dimension the evaluator's prompt names. */
function allThresholds(call: FakeCall): string {
  const names = /dimensions: ([\w, ]+)\./.exec(call.system)?.[1]?.split(", ") ?? [];
  return names.map((name) => `${name}: 0.5`).join("\n");
}

Deno.test("rerankTot() with dimensions_per_level 3 asks for three, and a reply naming two gets a correction turn", async () => {
  const { deps: d, calls } = deps(script({
    "tot-agent": (call) => {
      const level1 = call.system.includes("- fluency:");
      // Two at first; three once corrected.
      if (call.messages.length <= 2) {
        return level1 ? "Dimensions: fluency, novelty" : "Dimensions: lexical, semantic";
      }
      return level1
        ? "Dimensions: fluency, novelty, accuracy"
        : "Dimensions: lexical, semantic, pragmatic";
    },
    "tot-threshold": allThresholds,
  }));
  const body = await rerankTot(d, {
    query: QUERY,
    documents: DOCUMENTS,
    tot: { unit: "passage", dimensions_per_level: 3 },
  });
  const agentCalls = calls.filter((c) => c.prompt.startsWith("tot-agent@"));
  assert.ok(agentCalls.every((c) => c.prompt === "tot-agent@2"));
  assert.ok(agentCalls.every((c) => /Choose the three dimensions/.test(c.system)));
  assert.ok(agentCalls.every((c) => /Dimensions: <first>, <second>, <third>/.test(c.system)));
  assert.equal(agentCalls.length, 4, "one correction turn per level");
  assert.deepEqual(body.tree.levels.map((l) => [l.dimensions, l.chosen_by]), [
    [["fluency", "novelty", "accuracy"], "agent"],
    [["lexical", "semantic", "pragmatic"], "agent"],
  ]);
  assert.equal(body.degraded, false);
  assert.equal(Object.keys(body.results[0]!.scores!.criteria).length, 6);
});

Deno.test("rerankTot() with dimensions_per_level 3: fewer even after a correction is completed and degraded; more is cut, with a warning", async () => {
  const { deps: d } = deps(script({
    "tot-agent": (call) =>
      call.system.includes("- fluency:")
        ? "Dimensions: fluency, novelty"
        : "Dimensions: stylistic, lexical, semantic, structural",
    "tot-threshold": allThresholds,
  }));
  const body = await rerankTot(d, {
    query: QUERY,
    documents: DOCUMENTS,
    tot: { unit: "passage", dimensions_per_level: 3 },
  });
  const [first, second] = body.tree.levels;
  assert.deepEqual(first!.dimensions, ["fluency", "novelty", "accuracy"]);
  assert.equal(first!.chosen_by, "default");
  assert.equal(first!.degraded, true);
  assert.deepEqual(second!.dimensions, ["stylistic", "lexical", "semantic"]);
  assert.equal(second!.chosen_by, "agent");
  assert.ok(body.warnings!.some((w) => /^level 1: the agent's reply named fewer than 3/.test(w)));
  assert.ok(
    body.warnings!.some((w) => /^level 2: the agent named 4 dimensions; the first 3/.test(w)),
    body.warnings!.join("\n"),
  );
});
