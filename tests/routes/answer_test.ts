import assert from "node:assert/strict";
import { answerPrompt } from "../../prompts/answer.ts";
import { CORPUS } from "./corpus.ts";
import { readEvents, testApp } from "./helpers.ts";
import type { ErrorBody } from "./helpers.ts";

type AnswerBody = {
  answer: string;
  citations: {
    index: number;
    id?: string;
    doc_id?: string;
    title?: string;
    label: string;
    page?: number;
  }[];
  answered: boolean;
  usage: { tokens_in: number; tokens_out: number };
};

const DOCUMENTS = CORPUS.map((document) => ({
  id: `${document.id}#0`,
  text: document.text,
  metadata: { doc_id: document.id, title: document.title },
}));

const citedNumbers = (answer: string) =>
  [...answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));

Deno.test("POST /v1/answer answers with [n] citations that map to the given documents", async () => {
  const { post } = testApp();
  const response = await post("/v1/answer", {
    query: "What is a volcano and what feeds its eruptions?",
    documents: DOCUMENTS,
  });
  assert.equal(response.status, 200);
  const body: AnswerBody = await response.json();
  assert.equal(body.answered, true);
  assert.ok(citedNumbers(body.answer).length > 0, body.answer);
  assert.deepEqual(
    body.citations.map((citation) => citation.index).sort(),
    [...new Set(citedNumbers(body.answer))].sort(),
  );
  for (const citation of body.citations) {
    const document = DOCUMENTS[citation.index - 1]!;
    assert.equal(citation.id, document.id);
    assert.equal(citation.doc_id, document.metadata.doc_id);
    assert.equal(citation.title, document.metadata.title);
  }
  assert.deepEqual(body.citations.map((citation) => citation.doc_id), ["volcano"]);
  assert.ok(body.usage.tokens_in > 0 && body.usage.tokens_out > 0);
});

Deno.test("POST /v1/answer takes plain strings as documents", async () => {
  const { post } = testApp();
  const body: AnswerBody = await (await post("/v1/answer", {
    query: "What does reciprocal rank fusion merge?",
    documents: ["Paris is the capital of France.", CORPUS[0]!.text],
  })).json();
  assert.equal(body.answered, true);
  assert.deepEqual(body.citations, [{ index: 2, label: "document 2" }]);
});

Deno.test("POST /v1/answer says the documents do not answer an unrelated question", async () => {
  const { post } = testApp();
  const body: AnswerBody = await (await post("/v1/answer", {
    query: "Who won the football world cup in 1998?",
    documents: DOCUMENTS,
  })).json();
  assert.equal(body.answered, false);
  assert.equal(body.answer, answerPrompt.noAnswer);
  assert.deepEqual(body.citations, []);
});

Deno.test("POST /v1/answer with no documents answers false without calling a model", async () => {
  const { post } = testApp();
  const body: AnswerBody = await (await post("/v1/answer", {
    query: "What is a volcano?",
    documents: [],
  })).json();
  assert.deepEqual(body, {
    answer: answerPrompt.noAnswer,
    citations: [],
    answered: false,
    usage: { tokens_in: 0, tokens_out: 0 },
  });
});

Deno.test("POST /v1/answer with stream: true sends answer-delta..., answer-end, usage, done", async () => {
  const { post } = testApp();
  const response = await post("/v1/answer", {
    query: "What is a volcano and what feeds its eruptions?",
    documents: DOCUMENTS,
    stream: true,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const events = await readEvents(response);
  const names = events.map((event) => event.event);
  const deltas = names.filter((name) => name === "answer-delta").length;
  assert.ok(deltas >= 1);
  assert.deepEqual(names, [...Array(deltas).fill("answer-delta"), "answer-end", "usage", "done"]);

  const text = events
    .filter((event) => event.event === "answer-delta")
    .map((event) => (event.data as { text: string }).text)
    .join("");
  const end = events[deltas]!.data as Omit<AnswerBody, "usage">;
  assert.equal(end.answer, text.trim());
  assert.equal(end.answered, true);
  assert.deepEqual(end.citations.map((citation) => citation.doc_id), ["volcano"]);
  const usage = events[deltas + 1]!.data as AnswerBody["usage"];
  assert.ok(usage.tokens_in > 0 && usage.tokens_out > 0);
  assert.deepEqual(events.at(-1)!.data, {});
});

Deno.test("POST /v1/answer answers 400 before any stream for a bad request", async () => {
  const { post } = testApp();
  const response = await post("/v1/answer", { query: "", documents: [], stream: true });
  assert.equal(response.status, 400);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  assert.match((await response.json() as ErrorBody).error.message, /^query: /);
  const noDocuments = await post("/v1/answer", { query: "x", documents: "none" });
  assert.match((await noDocuments.json() as ErrorBody).error.message, /^documents: /);
});

Deno.test("POST /v1/answer labels a citation with its document's title, section and page", async () => {
  const { post } = testApp();
  const volcano = DOCUMENTS.find((document) => document.metadata.doc_id === "volcano")!;
  const body: AnswerBody = await (await post(
    "/v1/answer",
    {
      query: "What is a volcano and what feeds its eruptions?",
      documents: [{
        ...volcano,
        metadata: { ...volcano.metadata, section: "Earth > 2.3 Eruptions", page: 7, page_end: 8 },
      }],
    },
  )).json();
  assert.deepEqual(body.citations.map((citation) => citation.label), [
    `${volcano.metadata.title}, §2.3, pp. 7-8`,
  ]);
  assert.equal(body.citations[0]!.page, 7);
});
