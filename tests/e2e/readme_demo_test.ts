/**
 * The README's sample answers are what a fresh sift says: each question
 * between the `demo-answers` markers goes through `/v1/query` in-process,
 * over the demo corpus and the offline model, and its answer must equal the
 * README's (line breaks and indentation aside).
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";

const README = await Deno.readTextFile(new URL("../../README.md", import.meta.url));

/** Questions (unindented lines) and their answers (the indented lines under them). */
function sampleAnswers(readme: string): Map<string, string> {
  const block = /<!-- demo-answers:start -->([\s\S]*?)<!-- demo-answers:end -->/.exec(readme)?.[1];
  assert.ok(block, "the README has no demo-answers block");
  const samples = new Map<string, string>();
  let question = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("```") || !line.trim()) continue;
    if (/^\s/.test(line)) {
      samples.set(question, `${samples.get(question) ?? ""} ${line.trim()}`.trim());
    } else question = line.trim();
  }
  return samples;
}

async function answerOf(app: ReturnType<typeof createSiftApp>, query: string): Promise<string> {
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  }, { SIFT_DATA_DIR: "" });
  assert.equal(response.status, 200);
  for await (const event of readServerSentEvents(response.body!)) {
    if (event.event === "answer-end") return (event.data as { answer: string }).answer;
  }
  throw new Error(`no answer-end for ${query}`);
}

Deno.test("every sample answer in the README is what sift answers over the demo corpus", async () => {
  const samples = sampleAnswers(README);
  assert.ok(samples.size >= 5, `only ${samples.size} samples`);
  const app = createSiftApp();
  for (const [question, sample] of samples) {
    const answer = await answerOf(app, question);
    assert.match(answer, /\[\d+\]/, `${question}: no citation`);
    assert.equal(answer, sample, question);
  }
});

Deno.test("the README's Try it questions are among the checked samples", () => {
  const samples = sampleAnswers(README);
  const tryIt = README.split("## Try it")[1]?.split("\n## ")[0] ?? "";
  const asked = [...tryIt.matchAll(/task ask "([^"]+)"|"query": "([^"]+)"/g)]
    .map((match) => match[1] ?? match[2]!);
  assert.ok(asked.length >= 3, `Try it asks ${asked.length} questions`);
  for (const question of asked) assert.ok(samples.has(question), `${question} has no sample`);
});
