/**
 * A model that misbehaves while looking healthy: empty replies, and chat
 * calls that fail while `/models` answers. A real loopback server through
 * the `openai` SDK, so the SDK's own handling is in the path.
 */
import assert from "node:assert/strict";
import { serveTextModel } from "../helpers/text_model_server.ts";
import { CORPUS } from "./corpus.ts";
import { EMPTY_ENV, readEvents, testApp, withoutErrorLogs } from "./helpers.ts";

const QUESTION = "What is reciprocal rank fusion?";

/** An app on a model whose answer step replies `answer` and whose other calls reply "0". */
async function appWithModel(answer: string | number) {
  const model = serveTextModel((call) => call.prompt.startsWith("answer") ? answer : "5");
  const setup = testApp({ ...EMPTY_ENV, LLM_BASE_URL: model.baseURL, LLM_API_KEY: "test" });
  assert.equal((await setup.post("/v1/documents", { documents: CORPUS })).status, 201);
  return {
    ...setup,
    model,
    answerCalls: () => model.calls.filter((c) => c.prompt.startsWith("answer")),
  };
}

for (const empty of ["", "  \n\t "]) {
  Deno.test(`an empty model reply (${JSON.stringify(empty)}) ends /v1/query with an error event, never answer-end, after one retry`, async () => {
    const { post, model, answerCalls } = await appWithModel(empty);
    await using _ = model;
    const events = await withoutErrorLogs(async () =>
      await readEvents(await post("/v1/query", { query: QUESTION }))
    );
    const names = events.map((event) => event.event);
    assert.ok(!names.includes("answer-end"), names.join(","));
    assert.ok(!names.includes("answer-delta"), "whitespace is not streamed as an answer");
    const error = events.find((event) => event.event === "error")?.data as {
      type: string;
      message: string;
    };
    assert.equal(error.type, "upstream_error");
    assert.match(error.message, /empty answer/);
    assert.equal(names.at(-1), "done");
    assert.equal(answerCalls().length, 2, "tried once more as a transient failure");
  });
}

Deno.test("an empty model reply gets 502 on chat, and the documented error chunk when streaming", async () => {
  const { post, model } = await appWithModel("");
  await using _ = model;
  const plain = await withoutErrorLogs(async () =>
    await post("/v1/chat/completions", {
      model: "sift-relevance",
      messages: [{ role: "user", content: QUESTION }],
    })
  );
  assert.equal(plain.status, 502);
  const body = await plain.json() as { error: { message: string; type: string } };
  assert.equal(body.error.type, "server_error");
  assert.match(body.error.message, /empty answer/);

  const streamed = await withoutErrorLogs(async () =>
    await post("/v1/chat/completions", {
      model: "sift-relevance",
      stream: true,
      messages: [{ role: "user", content: QUESTION }],
    })
  );
  assert.equal(streamed.status, 200);
  const text = await streamed.text();
  assert.match(text, /"error":\{"message":"[^"]*empty answer/);
  assert.doesNotMatch(text, /"finish_reason":"stop"/);
});

Deno.test("a reply empty once and then real is answered (the retry), with both calls' usage", async () => {
  let calls = 0;
  const model = serveTextModel((call) =>
    call.prompt.startsWith("answer") ? (calls++ === 0 ? "" : "Fusion sums 1/(k + rank) [1].") : "5"
  );
  await using _ = model;
  const { post } = testApp({ ...EMPTY_ENV, LLM_BASE_URL: model.baseURL, LLM_API_KEY: "test" });
  const response = await post("/v1/answer", {
    query: QUESTION,
    documents: ["RRF sums 1/(k+rank)."],
  });
  assert.equal(response.status, 200);
  const body = await response.json() as {
    answer: string;
    answered: boolean;
    usage: { tokens_in: number };
  };
  assert.equal(body.answer, "Fusion sums 1/(k + rank) [1].");
  assert.equal(body.usage.tokens_in, 20, "10 prompt tokens per call, two calls");
  assert.equal(body.answered, true);
  assert.equal(calls, 2);
});

Deno.test("/healthz reports the model down when chat fails (501) while /models answers, and says why", async () => {
  const model = serveTextModel(() => 501);
  await using _ = model;
  const models = await fetch(`${model.baseURL}/models`);
  assert.equal(models.status, 200, "the model list answers");
  await models.body?.cancel();
  const { app, env } = testApp({ ...EMPTY_ENV, LLM_BASE_URL: model.baseURL, LLM_API_KEY: "test" });
  const response = await app.request("/healthz", {}, env);
  assert.equal(response.status, 200);
  const body = await response.json() as {
    status: string;
    checks: Record<string, string>;
    problems: Record<string, string>;
  };
  assert.equal(body.status, "degraded");
  assert.equal(body.checks.llm, "down");
  assert.equal(body.checks.embeddings, "ok");
  assert.match(body.problems.llm!, /chat call failed with status 501/);
  assert.equal(body.problems.embeddings, undefined);
});

Deno.test("/healthz probes a real provider at most once per cache period, however often it is polled", async () => {
  const model = serveTextModel(() => "ok");
  await using _ = model;
  const { app, env } = testApp({ ...EMPTY_ENV, LLM_BASE_URL: model.baseURL, LLM_API_KEY: "test" });
  const polls = await Promise.all(
    Array.from({ length: 20 }, async () => await (await app.request("/healthz", {}, env)).json()),
  );
  assert.ok(polls.every((poll) => poll.checks.llm === "ok"));
  assert.equal(model.calls.length, 1, "20 polls, one one-token chat call");
  assert.equal(model.calls[0]!.body.max_tokens, 1);
});
