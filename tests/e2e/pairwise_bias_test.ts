/**
 * Position bias, checked from outside: sift against a real OpenAI-compatible
 * HTTP server whose judge always prefers whichever answer it is shown first.
 * Judged in both orders, that preference cancels out: the game is a tie and
 * the disagreement is reported. The offline judge, which has no position
 * bias, gives the same verdict in both orders.
 */
import assert from "node:assert/strict";
import { mountJudge } from "../../functions/judge/app.ts";
import { createServer } from "../../compose/server.ts";
import { Runtime } from "../../compose/runtime.ts";

type ChatCall = { prompt: string; model: string; structured: boolean; user: string };

/** The first-answer-loving judge: `[[A]]` in text mode, `{"verdict": "A"}` with json_schema. */
function reply(call: ChatCall): string {
  if (call.prompt.startsWith("judge-retrieval@")) {
    return call.structured
      ? JSON.stringify({ reason: "It is on topic and answers the question.", score: 2 })
      : "It is on topic and answers the question.\nScore: 2";
  }
  if (call.prompt.startsWith("judge-pairwise@")) {
    return call.structured
      ? JSON.stringify({ reasoning: "Assistant A's answer is more thorough.", verdict: "A" })
      : "Assistant A's answer is more thorough than [[B]]'s would suggest.\n\nVerdict: [[A]]";
  }
  return "I am not sure what you mean.";
}

/** An OpenAI-compatible `/v1/chat/completions` on a free port, recording every call. */
function serveBiasedJudge() {
  const calls: ChatCall[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method !== "POST" || path !== "/v1/chat/completions") {
        return Response.json({ error: { message: "Not found", type: "invalid_request_error" } }, {
          status: 404,
        });
      }
      const body = await request.json() as {
        model: string;
        messages: { role: string; content: string }[];
        response_format?: { type: string };
      };
      const call = {
        prompt: request.headers.get("x-sift-prompt") ?? "",
        model: body.model,
        structured: body.response_format?.type === "json_schema",
        user: body.messages.findLast((m) => m.role === "user")?.content ?? "",
      };
      calls.push(call);
      const content = reply(call);
      return Response.json({
        id: `chatcmpl-${crypto.randomUUID()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{
          index: 0,
          message: { role: "assistant", content, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      });
    },
  );
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    calls,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function judgeApp(env: Record<string, string>) {
  const app = createServer({ runtime: new Runtime(), mounts: [mountJudge], serves: ["JUDGE"] });
  return async (body: unknown) =>
    await app.request("/v1/judge/pairwise", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, { DEMO_CORPUS: "false", ...env });
}

const GAME = {
  query: "What is the constant k in reciprocal rank fusion?",
  answer_a: "The constant k in reciprocal rank fusion is usually 60 [1].",
  answer_b: "Reciprocal rank fusion sums 1 / (k + rank); k is commonly set to 60 [1].",
  documents: ["Reciprocal rank fusion adds 1 / (k + rank) for each list; k is usually 60."],
};

const extractAnswer = (user: string, tag: string) =>
  new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(user)?.[1];

for (const structured of [true, false]) {
  const mode = structured ? "structured" : "text";

  Deno.test(`a judge that always prefers the first answer ties, with its position bias reported (${mode} mode)`, async () => {
    await using judge = serveBiasedJudge();
    const post = judgeApp({
      LLM_BASE_URL: judge.baseURL,
      LLM_API_KEY: "test-key",
      LLM_STRUCTURED_OUTPUTS: String(structured),
      JUDGE_MODEL: "biased-judge",
    });
    const response = await post(GAME);
    assert.equal(response.status, 200, await response.clone().text());
    const body = await response.json();
    assert.equal(body.winner, "C");
    assert.equal(body.orders_disagree, true);
    assert.deepEqual(body.verdicts, ["A", "B"]);
    assert.equal(body.degraded, false);
    assert.match(body.reasoning, /Answer A shown first/);
    assert.deepEqual(
      body.usage,
      { tokens_in: 300, tokens_out: 30 },
      "one retrieval call, two games",
    );

    assert.ok(judge.calls.every((call) => call.model === "biased-judge"));
    assert.ok(judge.calls.every((call) => call.structured === structured));
    const games = judge.calls.filter((call) => call.prompt.startsWith("judge-pairwise@"));
    assert.equal(games.length, 2, "one game in each order");
    const shownFirst = games.map((game) => extractAnswer(game.user, "answer_a")).sort();
    assert.deepEqual(shownFirst, [GAME.answer_a, GAME.answer_b].sort());
    for (const game of games) {
      assert.match(game.user, /^Document 1:\n.*usually 60\.\nRelevance note: very relevant\./m);
    }
  });
}

Deno.test("the offline judge shows no position bias on a clear-cut pair, in either mode", async () => {
  for (const structured of ["true", "false"]) {
    const post = judgeApp({ LLM_STRUCTURED_OUTPUTS: structured });
    for (
      const [answer_a, answer_b, winner] of [
        [GAME.answer_a, "Cats purr when they are content.", "A"],
        ["Cats purr when they are content.", GAME.answer_a, "B"],
      ] as const
    ) {
      const body = await (await post({ ...GAME, answer_a, answer_b })).json();
      assert.equal(body.winner, winner, `${structured}: ${answer_a}`);
      assert.deepEqual(body.verdicts, [winner, winner]);
      assert.equal(body.orders_disagree, false);
      assert.equal(body.degraded, false);
    }
  }
});
