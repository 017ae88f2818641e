/**
 * Three Cohere callers pointed at sift over real HTTP (#19): the official
 * `cohere-ai` client, the Vercel AI SDK's `rerank` with `@ai-sdk/cohere`, and
 * LangChain's `CohereRerank` compressor. Each gets `top_n` results for two
 * weak documents and for ten, the ones sift discarded last.
 */
import assert from "node:assert/strict";
import { CohereClientV2 } from "cohere-ai";
import { rerank } from "ai";
import { createCohere } from "@ai-sdk/cohere";
import { CohereRerank } from "@langchain/cohere";
import { Document } from "@langchain/core/documents";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

const TEN = RERANK_DOCUMENTS.slice(0, 10).map((document) => document.text);
const WEAK = ["Cats are small domesticated mammals.", "Tomatoes need full sun."];
const CASES = [
  { name: "two weak documents", documents: WEAK, topN: 2 },
  { name: "ten documents", documents: TEN, topN: 10 },
  { name: "ten documents, top 4", documents: TEN, topN: 4 },
];
const MODELS = ["sift-one-turn", "sift-relevance", "sift-tot"];

type LangChainFields = ConstructorParameters<typeof CohereRerank>[0];
type Ranked = { index: number; score: number }[];
type Client = (model: string, documents: string[], topN: number) => Promise<Ranked>;

function serveSift() {
  const app = createSiftApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, { DEMO_CORPUS: "false" }),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function clients(url: string): Record<string, Client> {
  const cohere = new CohereClientV2({ environment: url, token: "unused", maxRetries: 0 });
  const vercel = createCohere({ baseURL: `${url}/v2`, apiKey: "unused" });
  return {
    "cohere-ai": async (model, documents, topN) =>
      (await cohere.rerank({ model, query: RERANK_QUERY, documents, topN })).results
        .map((result) => ({ index: result.index, score: result.relevanceScore })),
    "ai (Vercel AI SDK)": async (model, documents, topN) =>
      (await rerank({
        model: vercel.reranking(model),
        query: RERANK_QUERY,
        documents,
        topN,
        maxRetries: 0,
      })).ranking.map((entry) => ({ index: entry.originalIndex, score: entry.score })),
    // LangChain's default client speaks Cohere's v1 API (tests/e2e/cohere_v1_clients_test.ts);
    // its `client` option takes a v2 one, whose rerank has the same call, typed as v1's.
    "@langchain/cohere": async (model, documents, topN) => {
      const client = cohere as unknown as NonNullable<NonNullable<LangChainFields>["client"]>;
      const compressor = new CohereRerank({ client, model, topN });
      const compressed = await compressor.compressDocuments(
        documents.map((text, index) => new Document({ pageContent: text, metadata: { index } })),
        RERANK_QUERY,
      );
      return compressed.map((document) => ({
        index: document.metadata.index as number,
        score: document.metadata.relevanceScore as number,
      }));
    },
  };
}

/** The indices sift discarded for this request, asked directly. */
async function discardedBy(url: string, model: string, documents: string[]) {
  const response = await fetch(`${url}/v2/rerank`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, query: RERANK_QUERY, documents }),
  });
  const body = await response.json() as { discarded: { index: number }[] };
  return new Set(body.discarded.map((entry) => entry.index));
}

Deno.test("cohere-ai, the AI SDK's rerank and LangChain's CohereRerank get top_n results, discarded last", async () => {
  await using sift = serveSift();
  for (const [client, call] of Object.entries(clients(sift.url))) {
    for (const model of MODELS) {
      for (const { name, documents, topN } of CASES) {
        const label = `${client} ${model} ${name}`;
        const ranked = await call(model, documents, topN);
        assert.equal(ranked.length, topN, label);
        assert.equal(new Set(ranked.map((entry) => entry.index)).size, topN, label);
        const scores = ranked.map((entry) => entry.score);
        assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${label}: best first`);
        const dropped = await discardedBy(sift.url, model, documents);
        const first = ranked.findIndex((entry) => dropped.has(entry.index));
        if (first !== -1) {
          assert.ok(ranked.slice(first).every((entry) => dropped.has(entry.index)), label);
        }
      }
    }
  }
});
