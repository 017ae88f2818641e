import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { createAnswerServer } from "../../functions/answer/server.ts";
import { Runtime } from "../../compose/runtime.ts";
import {
  cancelledWithin,
  leaveAfterFirstDelta,
  startEndlessUpstream,
} from "../helpers/endless_upstream.ts";

/** Asks a question, leaves at the first answer token, and says whether the LLM stream stopped. */
async function leaveMidAnswer(
  app: ReturnType<typeof createSiftApp>,
  env: Record<string, string>,
  upstream: ReturnType<typeof startEndlessUpstream>,
): Promise<"cancelled" | "timeout"> {
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "What is reciprocal rank fusion?" }),
  }, env);
  assert.equal(response.status, 200);
  await leaveAfterFirstDelta(response.body!);
  return await cancelledWithin(upstream, 3000);
}

Deno.test("a client that leaves /v1/query mid-answer cancels the upstream LLM stream (in-process)", async () => {
  const upstream = startEndlessUpstream();
  try {
    const env = { LLM_BASE_URL: upstream.baseURL, LLM_API_KEY: "test" };
    assert.equal(
      await leaveMidAnswer(createSiftApp(), env, upstream),
      "cancelled",
      "the upstream stream was still being read 3 s after the client left",
    );
    assert.equal(upstream.endlessRequests(), 1);
  } finally {
    await upstream.close();
  }
});

Deno.test("a client that leaves /v1/query mid-answer stops the answer function's LLM call over HTTP", async () => {
  const upstream = startEndlessUpstream();
  const llm = { LLM_BASE_URL: upstream.baseURL, LLM_API_KEY: "test" };
  // The answer function alone, on its own port, as `deno task serve answer` runs it.
  const answerApp = createAnswerServer(new Runtime());
  let answerRequests = 0;
  const answerServer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    answerRequests++;
    return answerApp.fetch(request, llm);
  });
  try {
    const env = { ...llm, STEP_URL_ANSWER: `http://127.0.0.1:${answerServer.addr.port}` };
    assert.equal(
      await leaveMidAnswer(createSiftApp(), env, upstream),
      "cancelled",
      "the answer function's upstream stream was still being read 3 s after the client left",
    );
    assert.equal(answerRequests, 1, "the answer step went over HTTP");
    assert.equal(upstream.endlessRequests(), 1);
  } finally {
    await answerServer.shutdown();
    await upstream.close();
  }
});
