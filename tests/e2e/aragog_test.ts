import OpenAI from "openai";
import assert from "node:assert/strict";
import { ARAGOG_DIR, aragogAvailable } from "../helpers/aragog.ts";
import { readConfig } from "../../shared/config.ts";
import { batchDocuments } from "../../scripts/documents.ts";
import { bm25Baseline, readDataset, scoreMode } from "../../scripts/retrieval-eval.ts";
import { readEvents } from "../../scripts/client.ts";
import { startService } from "./service.ts";

const DATASET = ARAGOG_DIR;
const hasDataset = aragogAvailable();

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status < 300, true, `${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

Deno.test({
  name:
    "the service ingests ARAGOG, beats plain BM25 with hybrid search, answers with citations, and keeps its index across a restart",
  ignore: !hasDataset,
  async fn() {
    const dataDir = await Deno.makeTempDir();
    const env = { SIFT_DATA_DIR: dataDir, DEMO_CORPUS: "false", PATH: Deno.env.get("PATH") ?? "" };
    const { documents, questions } = await readDataset(DATASET);
    const namespace = "aragog";
    try {
      {
        await using service = await startService(env);
        for (const batch of batchDocuments(documents)) {
          await post(`${service.url}/v1/documents`, { documents: batch, namespace });
        }
        const hybrid = await scoreMode("hybrid", questions, async (query) => {
          const { results } = await post(`${service.url}/v1/search`, {
            query,
            top_k: 5,
            mode: "hybrid",
            namespace,
          });
          return (results as { doc_id: string }[]).map((hit) => hit.doc_id);
        });
        const baselineSearch = await bm25Baseline(documents, readConfig({}).chunking);
        const baseline = await scoreMode(
          "bm25",
          questions,
          (query) => Promise.resolve(baselineSearch(query, 5)),
        );
        assert.equal(hybrid.queries, 98);
        assert.ok(
          hybrid.hit_at_5 >= baseline.hit_at_5,
          `hit@5 hybrid ${hybrid.hit_at_5} < BM25 ${baseline.hit_at_5}`,
        );
        assert.ok(
          hybrid.mrr_at_5 >= baseline.mrr_at_5,
          `MRR@5 hybrid ${hybrid.mrr_at_5} < BM25 ${baseline.mrr_at_5}`,
        );

        // The official openai client over real HTTP (it asks for base64 by default).
        const openai = new OpenAI({
          baseURL: `${service.url}/v1`,
          apiKey: "unused",
          maxRetries: 0,
        });
        const embeddings = await openai.embeddings.create({
          model: "any",
          input: ["BERT", "RoBERTa"],
        });
        assert.equal(embeddings.data.length, 2);
        assert.equal(embeddings.data[0]!.embedding.length, 2048);

        const response = await fetch(`${service.url}/v1/query`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query: "What are the two main tasks BERT is pre-trained on?",
            pipeline: { namespace },
          }),
        });
        assert.equal(response.headers.get("content-type")?.startsWith("text/event-stream"), true);
        const events = [];
        for await (const event of readEvents(response.body!)) events.push(event);
        const names = events.map((event) => event.event);
        assert.equal(names[0], "retrieval-end");
        assert.deepEqual(names.slice(-3), ["answer-end", "usage", "done"]);
        assert.ok(names.includes("answer-delta"));
        const end = events.find((event) => event.event === "answer-end")!.data as {
          answer: string;
          citations: { doc_id: string }[];
          answered: boolean;
        };
        assert.equal(end.answered, true, end.answer);
        assert.match(end.answer, /\[\d+\]/);
        assert.ok(
          end.citations.some((citation) => citation.doc_id === "bert"),
          JSON.stringify(end.citations),
        );
      }
      {
        // A new process over the same data directory still has the documents.
        await using service = await startService(env);
        const { results } = await post(`${service.url}/v1/search`, {
          query: "masked language model next sentence prediction",
          top_k: 3,
          mode: "hybrid",
          namespace,
        });
        // BERT's pre-training tasks; RoBERTa's section on dropping NSP may rank beside it.
        assert.ok(
          (results as { doc_id: string }[]).some((hit) => hit.doc_id === "bert"),
          JSON.stringify(results),
        );
      }
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
