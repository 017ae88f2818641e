/**
 * sift against a real OpenAI-compatible HTTP server that answers rerank
 * prompts in the papers' text format, the way a sloppy model does: prose,
 * markdown, code fences, `Doc: 0`, `Doc: 99`, a score in words, a duplicate
 * (the last stated score stands), decimals. The ranking must follow the
 * numbers actually written.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { serveTextModel } from "../helpers/text_model_server.ts";
import { readEvents } from "../routes/helpers.ts";
import { ingestable, RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

type Reply = (call: { prompt: string; system: string; user: string }) => string;
type Result = {
  index: number;
  relevance_score: number | null;
  scores: { relevance: number | null; criteria: Record<string, number>; final: number } | null;
  degraded?: true;
};
type RerankBody = {
  results: Result[];
  discarded: { index: number; reason: string }[];
  degraded: boolean;
  warnings?: string[];
};

const SIX = RERANK_DOCUMENTS.slice(0, 6);

/** `Doc: N, Relevance: X` lines, as a model that ignores half the instructions writes them. */
const RELEVANCE_REPLY = [
  "Sure! Here is my **ranking** of the documents:",
  "",
  "```text",
  "Doc: 6, Relevance: 8.5",
  "**Doc: 1**, Relevance: 7.25",
  "- Doc: 0, Relevance: 10",
  "Doc: 3, Relevance: 6.95",
  "Doc: 99, Relevance: 9.9",
  "Doc: 4, Relevance: high",
  "1. Doc: 2, Relevance: 6.9",
  "Doc: 3, Relevance: 1",
  "* Doc: 5, Relevance: 6",
  "```",
  "Documents 4 and 5 look off-topic to me. Doc 4 should rank last.",
].join("\n");

/** The one-turn format with breakdowns; finals the code must recompute or keep. */
const ONE_TURN_REPLY = [
  "Here are the scores you asked for:",
  "",
  // final 8 + 0.5 · 7 = 11.5
  "Doc: 2, Relevance: 11.5, Topicality: 8, Depth: 3, Diversity: 1, Clarity: 2, " +
  "Authoritativeness: 1, Recency: 0",
  // final 7.75 + 0.5 · 11 = 13.25
  "**Doc: 5**, Relevance: 13.25, Topicality: 7.75, Depth: 4, Diversity: 2, Clarity: 3, " +
  "Authoritativeness: 1, Recency: 1",
  "Doc: 0, Relevance: 15, Topicality: 10, Depth: 5, Diversity: 5, Clarity: 5, " +
  "Authoritativeness: 5, Recency: 5",
  // relevance 2 is below the threshold 3
  "Doc: 1, Relevance: 6, Topicality: 2, Depth: 2, Diversity: 2, Clarity: 2, " +
  "Authoritativeness: 1, Recency: 1",
  "Doc: 3, Relevance: excellent, Topicality: 9, Depth: 5, Diversity: 5, Clarity: 5, " +
  "Authoritativeness: 5, Recency: 5",
  // no breakdown: the written final stands
  "- Doc: 6, Relevance: 9.5",
  "Doc: 5, Relevance: 20, Topicality: 10, Depth: 5, Diversity: 5, Clarity: 5, " +
  "Authoritativeness: 5, Recency: 5",
  // final 8.4 + 0.5 · 9 = 12.9
  "Doc: 4, Relevance: 12.9, Topicality: 8.4, Depth: 3, Diversity: 0, Clarity: 3, " +
  "Authoritativeness: 2, Recency: 1",
  "Doc: 99, Relevance: 14, Topicality: 9, Depth: 5, Diversity: 5, Clarity: 5, " +
  "Authoritativeness: 5, Recency: 5",
].join("\n");

const ANSWER_REPLY =
  "BM25 ranks documents by term statistics [1]. Dense retrieval uses vectors [2].";

/** Replies by prompt id, as a text-format model would. */
const scriptedReply: Reply = ({ prompt }) => {
  if (prompt.startsWith("rerank-relevance@")) return RELEVANCE_REPLY;
  if (prompt.startsWith("rerank@")) return ONE_TURN_REPLY;
  if (prompt.startsWith("answer@")) return ANSWER_REPLY;
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

async function rerank(post: ReturnType<typeof siftAgainst>, body: Record<string, unknown>) {
  const response = await post("/v1/rerank", { query: RERANK_QUERY, documents: SIX, ...body });
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as RerankBody;
}

function assertIndicesValid(body: RerankBody, count: number) {
  const indices = [...body.results, ...body.discarded].map((entry) => entry.index);
  for (const index of indices) assert.ok(Number.isInteger(index) && index >= 0 && index < count);
  assert.equal(new Set(indices).size, indices.length, `unique indices: ${indices}`);
}

Deno.test("relevance rerank against a text-format server ranks by the numbers written, ignoring junk lines", async () => {
  await using model = serveTextModel(scriptedReply);
  const post = siftAgainst(model.baseURL);
  const body = await rerank(post, { strategy: "relevance" });

  assertIndicesValid(body, SIX.length);
  // Doc 6: 8.5, Doc 1: 7.25, Doc 2: 6.9, Doc 5: 6, Doc 3: 1 (its last line: the reply revised
  // 6.95); Doc 4's "high" is no number, even after the correction turn: it keeps its place after
  // them with no score, degraded, not discarded.
  assert.deepEqual(
    body.results.map((r) => [r.index, r.relevance_score]),
    [[5, 8.5], [0, 7.25], [1, 6.9], [4, 6], [2, 1], [3, null]],
  );
  assert.equal(body.results.at(-1)!.degraded, true);
  assert.equal(body.degraded, true);
  assert.match(body.warnings!.join(" "), /1 score\(s\) unreadable/);
  assert.match(body.warnings!.join(" "), /1 score\(s\) revised/);
  assert.deepEqual(body.discarded, []);

  assert.equal(model.calls.length, 2, "one correction turn for Doc 4's unreadable score");
  assert.match(model.calls[1]!.user, /score for document\(s\) 4 .*format:\nReply only with lines/s);
  const [call] = model.calls;
  assert.equal("response_format" in call!.body, false, "text mode sends no json_schema");
  assert.match(call!.system, /Doc: <document number>, Relevance: <1-10>/);
  assert.ok(
    call!.user.includes(
      "Document 1: [title: The Probabilistic Relevance Framework: BM25 and Beyond; " +
        "source: arxiv.org; published: 2024-02-01; authors: S. Robertson, H. Zaragoza]\n",
    ),
    "the model sees each document's metadata",
  );
  assert.match(call!.user, /^Document 6:/m);
  assert.doesNotMatch(call!.user, /^Document 7:/m);
  assert.ok(call!.user.includes(`Question: ${RERANK_QUERY}`));
});

Deno.test("one-turn rerank against a text-format server recomputes finals from the written breakdown", async () => {
  await using model = serveTextModel(scriptedReply);
  const post = siftAgainst(model.baseURL);
  const body = await rerank(post, { strategy: "one-turn" });

  assertIndicesValid(body, SIX.length);
  assert.equal(body.degraded, true, "Doc 3's 'excellent' is unreadable");
  assert.deepEqual(
    body.results.map((r) => [r.index, r.relevance_score, r.scores?.relevance]),
    [[4, 22.5, 10], [3, 12.9, 8.4], [1, 11.5, 8], [5, 9.5, null], [2, null, undefined]],
  );
  // Doc 5's second line (20, all criteria 5) is the last stated: 10 + 0.5 · 25 = 22.5.
  assert.deepEqual(body.results[0]!.scores!.criteria, {
    depth: 5,
    diversity: 5,
    clarity: 5,
    authoritativeness: 5,
    recency: 5,
  });
  assert.deepEqual(body.discarded.map((entry) => entry.index), [0]);
  assert.match(body.discarded[0]!.reason, /relevance 2 is below the threshold 3/);
  assert.match(model.calls[0]!.system, /Topicality: <Relevance 0-10>, Depth: <0-5>/);
});

Deno.test("rerank against a text-format server reads each batch's numbers against that batch alone", async () => {
  await using model = serveTextModel(scriptedReply);
  const post = siftAgainst(model.baseURL);
  const body = await rerank(post, { strategy: "relevance", documents: RERANK_DOCUMENTS });
  assertIndicesValid(body, RERANK_DOCUMENTS.length);
  // Batches of 10 and 2; the batch of 10 reads Doc 4 as "high" and sends one correction turn.
  assert.equal(model.calls.length, 3, "batches of 10 and 2, and one correction");
  const small = model.calls.find((call) =>
    /^Document 1:/m.test(call.user) && !/^Document 3:/m.test(call.user)
  )!;
  assert.match(small.user, /^Document 2:/m);
  // The same reply lands on both batches; in the batch of two only Doc: 1 and Doc: 2 count.
  assert.deepEqual(body.results.map((r) => [r.index, r.relevance_score]), [
    [5, 8.5],
    [0, 7.25],
    [10, 7.25],
    [1, 6.9],
    [11, 6.9],
    [4, 6],
    [2, 1],
    [3, null],
  ]);
  assert.deepEqual(body.discarded.map((entry) => entry.index), [6, 7, 8, 9]);
});

Deno.test("an empty answer from the server keeps the retrieval order, marked degraded, for every strategy", async () => {
  await using model = serveTextModel(() => "");
  const post = siftAgainst(model.baseURL);
  for (const strategy of ["relevance", "one-turn", "two-turn", "two-turn-relevance"]) {
    const body = await rerank(post, { strategy });
    assert.equal(body.degraded, true, strategy);
    assert.deepEqual(body.results.map((r) => r.index), [0, 1, 2, 3, 4, 5], strategy);
    for (const result of body.results) {
      assert.equal(result.degraded, true);
      assert.equal(result.relevance_score, null);
    }
    assert.deepEqual(body.discarded, []);
  }
});

Deno.test("a whole query through the text-format server: rerank by written numbers, answer streamed over SSE", async () => {
  await using model = serveTextModel(scriptedReply);
  const post = siftAgainst(model.baseURL);
  const ingest = await post("/v1/documents", {
    documents: SIX.map(ingestable),
  });
  assert.equal(ingest.status, 201, await ingest.clone().text());
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "relevance" } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const data = (name: string) => events.find((event) => event.event === name)?.data;
  const retrieval = data("retrieval-end") as { results: { id: string }[] };
  assert.equal(retrieval.results.length, SIX.length);
  const reranked = data("rerank-end") as { results: Result[] };
  assert.deepEqual(reranked.results.map((r) => [r.index, r.relevance_score]), [
    [5, 8.5],
    [0, 7.25],
    [1, 6.9],
  ]);
  const deltas = events.filter((event) => event.event === "answer-delta");
  assert.ok(deltas.length > 1, "the answer arrives in pieces");
  const text = deltas.map((event) => (event.data as { text: string }).text).join("");
  assert.equal(text, ANSWER_REPLY);
  const answerCall = model.calls.find((call) => call.prompt.startsWith("answer@"));
  assert.equal(answerCall?.body.stream, true);
  assert.equal(events.at(-1)?.event, "done");
});
