/**
 * Functions deployed apart on Deno, composed over HTTP: `deno task serve`
 * runs index (embed + fuse, the index's one owner), generate-rubric, rerank
 * and answer on four ports, and `serve orchestrator` reaches them through
 * STEP_URL_* (docs/deno-processes.md). A two-turn query with fusion over the
 * demo corpus gives the same ranking and the same answer as the all-in-one
 * server, with those steps `via: "http"`.
 */
import assert from "node:assert/strict";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";
import { type RunningService, startService } from "./service.ts";

const QUERY = {
  query: "How does sift rerank passages by more than relevance?",
  pipeline: { retrieval: { fusion: true }, rerank: { strategy: "two-turn" } },
};

type Step = { name: string; via: string };
type Outcome = { retrieved: string[]; reranked: string[]; answer: string; steps: Step[] };

async function ask(service: RunningService): Promise<Outcome> {
  const response = await fetch(`${service.url}/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(QUERY),
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(response.status, 200);
  const events = await Array.fromAsync(readServerSentEvents(response.body!));
  const data = (name: string) => events.find((event) => event.event === name)?.data as never;
  const error = data("error");
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(events.at(-1)?.event, "done");
  const ids = (list: { results: { id: string }[] }) => list.results.map((result) => result.id);
  return {
    retrieved: ids(data("retrieval-end")),
    reranked: ids(data("rerank-end")),
    answer: (data("answer-end") as { answer: string }).answer,
    steps: (data("usage") as { steps: Step[] }).steps,
  };
}

Deno.test("functions served apart over HTTP answer as the all-in-one server does", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-distributed-" });
  const base = { SIFT_DATA_DIR: dataDir };
  const services: RunningService[] = [];
  try {
    const functions = ["index", "generate-rubric", "rerank", "answer"];
    const [index, rubric, rerank, answer, allInOne] = await Promise.all([
      ...functions.map((name) => startService(base, ["scripts/serve.ts", name])),
      startService({ ...base, SIFT_DATA_DIR: `${dataDir}/all-in-one` }),
    ]);
    services.push(index!, rubric!, rerank!, answer!, allInOne!);
    const composed = await startService({
      SIFT_DATA_DIR: `${dataDir}/composed`,
      STEP_URL_EMBED: index!.url,
      STEP_URL_FUSE: index!.url,
      STEP_URL_GENERATE_RUBRIC: rubric!.url,
      STEP_URL_RERANK: rerank!.url,
      STEP_URL_ANSWER: answer!.url,
    }, ["scripts/serve.ts", "orchestrator"]);
    services.push(composed);

    const local = await ask(allInOne!);
    const remote = await ask(composed);
    assert.deepEqual(remote.retrieved, local.retrieved);
    assert.deepEqual(remote.reranked, local.reranked);
    assert.equal(remote.answer, local.answer);
    assert.match(remote.answer, /\[\d+\]/);
    assert.deepEqual(
      remote.steps.map((step) => `${step.name}:${step.via}`).sort(),
      ["answer:http", "fuse:http", "rerank:http", "rubric:http"],
    );
    assert.ok(local.steps.every((step) => step.via === "in-process"));
  } finally {
    await Promise.all(services.map((service) => service.close()));
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
