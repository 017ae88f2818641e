/**
 * Strategy item against a real OpenAI-compatible HTTP server on loopback
 * that answers in RankGPT's text format the way a sloppy model does: prose
 * around the identifiers, repeats, identifiers out of range, passages left
 * out, empty replies. Every case is a 200 with the order the rules define
 * (`functions/rerank/item/identifiers.ts`), never a 500.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

type Call = { prompt: string; system: string; user: string; json: boolean };
type Reply = (call: Call, calls: readonly Call[]) => string;
type Iteration = { answer: string; ranking?: number[]; utility: number[]; degraded?: true };
type ItemBody = {
  results: { index: number; relevance_score: number }[];
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
  iterations: Iteration[];
  stop_reason: string;
};

const SIX = RERANK_DOCUMENTS.slice(0, 6);
const TEXTS = SIX.map((document) => document.text);

/** `/v1/chat/completions` on a free loopback port, answering every call with `reply`. */
function serveTextModel(reply: Reply) {
  const calls: Call[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      if (request.method !== "POST" || new URL(request.url).pathname !== "/v1/chat/completions") {
        return Response.json({ error: { message: "Not found" } }, { status: 404 });
      }
      const body = await request.json() as {
        model: string;
        messages: { role: string; content: string }[];
        response_format?: { type: string };
      };
      const call: Call = {
        prompt: (request.headers.get("x-sift-prompt") ?? "").replace(/@\d+$/, ""),
        system: body.messages.find((m) => m.role === "system")?.content ?? "",
        user: body.messages.findLast((m) => m.role === "user")?.content ?? "",
        json: body.response_format !== undefined,
      };
      calls.push(call);
      const content = reply(call, calls);
      return Response.json({
        id: `chatcmpl-${calls.length}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{
          index: 0,
          message: { role: "assistant", content, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        }],
        usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 },
      });
    },
  );
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    calls,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function rerank(baseURL: string, body: Record<string, unknown>, path = "/v1/rerank") {
  const response = await createSiftApp().request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: RERANK_QUERY, documents: SIX, ...body }),
  }, {
    LLM_BASE_URL: baseURL,
    LLM_API_KEY: "x",
    LLM_STRUCTURED_OUTPUTS: "false",
    DEMO_CORPUS: "false",
  });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json();
}

/** The documents a prompt shows, as indices into SIX, in the order shown. */
function shown(call: Call): number[] {
  const passages = call.user.split(/^\[\d+\] /m).slice(1);
  return passages.map((passage) => TEXTS.findIndex((text) => passage.includes(text)));
}

const SLOPPY_RANKING = "Sure! Here is the ranking you asked for:\n\n" +
  "[3] > [3] > [0] > [9] > **[1]**\n\nI put [3] first because it is the most specific.";
const SLOPPY_SELECTION = "My selection: [2], [9], [2], [5]. Passage 4 was close but not useful.";

Deno.test("ITEM AR_s over a text-format server follows the written identifiers through every iteration", async () => {
  await using model = serveTextModel(({ prompt }) => {
    if (prompt === "item-answer") return "BM25 ranks documents by term statistics.";
    if (prompt === "item-relevance-ranking") return SLOPPY_RANKING;
    return SLOPPY_SELECTION;
  });
  const body = await rerank(model.baseURL, { strategy: "item", item: { m: 3 } }) as ItemBody;
  // Each ranking reads [3] > [1] against the passages as shown, the left-out ones following
  // in the order shown; the selection's [2] and [5] likewise.
  assert.deepEqual(body.iterations.map((iteration) => [iteration.ranking, iteration.utility]), [
    [[2, 0, 1, 3, 4, 5], [0, 4]],
    [[1, 2, 0, 3, 4, 5], [2, 4]],
    [[0, 1, 2, 3, 4, 5], [1, 4]],
  ]);
  assert.equal(body.stop_reason, "max_iterations");
  assert.equal(body.degraded, false);
  assert.deepEqual(body.results.map((result) => result.index), [1, 4, 0, 2, 3, 5]);
  assert.deepEqual(
    { ...body.usage },
    { tokens_in: 900, tokens_out: 63, llm_calls: 9, cached: false },
  );

  const rankings = model.calls.filter((call) => call.prompt === "item-relevance-ranking");
  assert.deepEqual(rankings.map(shown), [
    [0, 1, 2, 3, 4, 5],
    [2, 0, 1, 3, 4, 5],
    [1, 2, 0, 3, 4, 5],
  ], "each ranking is shown in the previous ranking's order");
  const selections = model.calls.filter((call) => call.prompt === "item-utility-selection");
  assert.deepEqual(selections.map(shown)[0], [2, 0, 1, 3, 4, 5], "judged over R_t as shown");
  const answers = model.calls.filter((call) => call.prompt === "item-answer").map(shown);
  assert.deepEqual(answers, [[0, 1, 2, 3, 4, 5], [0, 4], [2, 4]], "answers read U_{t-1}, U_0 = D");
  assert.ok(model.calls.every((call) => !call.json), "text mode sends no json_schema");
  assert.match(rankings[0]!.system, /\[2\] > \[3\] > \[1\]/);
  assert.match(rankings[0]!.user, /\nReference answer: BM25 ranks documents by term statistics\.$/);
});

Deno.test("ITEM A_r and pointwise A_s over a text-format server read malformed replies by the rules", async () => {
  await using model = serveTextModel(({ prompt, user }) => {
    if (prompt === "item-answer") return "Dense retrieval uses vectors.";
    if (prompt === "item-utility-ranking") {
      return "Ranking:\n1. [4]\n2. [4]\n3. [7]\n4. [2]\nThe rest do not matter.";
    }
    // Pointwise: one verdict per passage, in every shape a model writes.
    const verdicts = ["Useful: yes", "**Useful:** no", "Yes, it helps.", "maybe", "", "No."];
    return verdicts[TEXTS.findIndex((text) => user.includes(text.slice(0, 40)))]!;
  });
  const ranked = await rerank(model.baseURL, {
    strategy: "item",
    item: { variant: "A_r", m: 2 },
  }) as ItemBody;
  assert.deepEqual(ranked.iterations[0]!.ranking, [3, 1, 0, 2, 4, 5]);
  assert.deepEqual(ranked.iterations[0]!.utility, [3, 1, 0, 2, 4], "the first k = 5");
  assert.equal(ranked.stop_reason, "unchanged");
  assert.deepEqual(ranked.results.map((result) => result.index), [3, 1, 0, 2, 4, 5]);

  const pointwise = await rerank(model.baseURL, {
    strategy: "item",
    item: { variant: "A_s", judgment: "pointwise", m: 1, start: "top5" },
  }) as ItemBody;
  // 0 and 2 say yes; 3 ("maybe") and 4 (empty) keep their place in U_0, the top five.
  assert.deepEqual(pointwise.iterations[0]!.utility, [0, 2, 3, 4]);
  assert.equal(pointwise.degraded, true);
  assert.deepEqual(pointwise.warnings, [
    "iteration 1: the judgment of documents 3, 4 was unusable; kept as in the previous set",
  ]);
  assert.deepEqual(pointwise.results.map((result) => result.index), [0, 2, 3, 4, 1, 5]);
});

Deno.test("ITEM over a text-format server that replies with nothing keeps the previous state, marked degraded", async () => {
  await using model = serveTextModel(() => "");
  const body = await rerank(model.baseURL, { strategy: "item", item: { m: 3 } }) as ItemBody;
  assert.equal(body.degraded, true);
  assert.equal(body.stop_reason, "max_iterations", "a degraded judgment is never unchanged");
  assert.equal(body.iterations.length, 3);
  for (const iteration of body.iterations) {
    assert.equal(iteration.degraded, true);
    assert.equal(iteration.answer, "");
    assert.deepEqual(iteration.ranking, [0, 1, 2, 3, 4, 5], "R_0, the retrieval order");
    assert.deepEqual(iteration.utility, [0, 1, 2, 3, 4, 5], "U_0, every candidate (R_0 = D)");
  }
  assert.deepEqual(body.results.map((result) => result.index), [0, 1, 2, 3, 4, 5]);
  assert.equal(body.usage.llm_calls, 18, "every step's empty reply gets one correction turn");
  assert.ok(body.warnings!.includes(
    "iteration 1: the utility judgment was unusable; the previous set was kept",
  ));
});

Deno.test("ITEM over a text-format server: an empty judgment mid-run keeps that iteration's previous set", async () => {
  let selections = 0;
  await using model = serveTextModel(({ prompt }) => {
    if (prompt === "item-answer") return "BM25 ranks documents by term statistics.";
    if (prompt === "item-relevance-ranking") return "[1] > [2] > [3] > [4] > [5] > [6]";
    // The second selection and its correction turn are both empty.
    selections++;
    return selections === 2 || selections === 3 ? "" : selections === 1 ? "[2] > [1]" : "[3]";
  });
  const body = await rerank(model.baseURL, { strategy: "item", item: { m: 3 } }) as ItemBody;
  assert.deepEqual(body.iterations.map((iteration) => [iteration.utility, iteration.degraded]), [
    [[1, 0], undefined],
    [[1, 0], true],
    [[2], undefined],
  ]);
  assert.equal(body.stop_reason, "max_iterations");
  assert.equal(body.degraded, true);
});

Deno.test("/v2/rerank sift-item over a text-format server gives Cohere's shape from malformed replies", async () => {
  await using model = serveTextModel(({ prompt }) => {
    if (prompt === "item-answer") return "BM25 ranks documents by term statistics.";
    if (prompt === "item-relevance-ranking") return SLOPPY_RANKING;
    return SLOPPY_SELECTION;
  });
  const body = await rerank(model.baseURL, { model: "sift-item", documents: TEXTS }, "/v2/rerank");
  const results = (body as { results: { index: number; relevance_score: number }[] }).results;
  assert.deepEqual(results.map((result) => result.index), [1, 4, 0, 2, 3, 5]);
  assert.deepEqual(results.map((result) => result.relevance_score > 0.5), [
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});
