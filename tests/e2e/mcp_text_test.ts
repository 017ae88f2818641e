/**
 * The text MCP's `rerank` and `ask` give clients that show only `content`
 * (most chat UIs): it reads as a sentence a person would write and says what
 * `structuredContent` says, through the official SDK's client on loopback.
 */
import assert from "node:assert/strict";
import { connectMcp, textOf } from "../helpers/mcp_client.ts";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

// deno-lint-ignore no-explicit-any
type Structured = any;

function serveSift(env: Record<string, string> = {}) {
  const app = createSiftApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, { DEMO_CORPUS: "false", ...env }),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

const DOCUMENTS = RERANK_DOCUMENTS.slice(0, 5).map((document) => document.text);

Deno.test("MCP rerank's text says each document's scores without empty lists or a repeated score", async () => {
  await using sift = serveSift();
  const { client, close } = await connectMcp(sift.url);
  try {
    for (const strategy of ["relevance", "one-turn", "item"]) {
      const result = await client.callTool({
        name: "rerank",
        arguments: { query: RERANK_QUERY, documents: DOCUMENTS, strategy },
      });
      assert.ok(!result.isError, textOf(result));
      const text = textOf(result);
      const first = (result.structuredContent as Structured).results[0];
      assert.doesNotMatch(text, /\(\s*[^)]*;\s*\)|, \)|\(\)/, `${strategy}: ${text}`);
      assert.match(text, new RegExp(`^1\\. document ${first.index}: `), `${strategy}: ${text}`);
      if (strategy === "relevance") {
        assert.match(
          text,
          new RegExp(`^1\\. document \\d+: relevance ${first.scores.relevance}$`, "m"),
        );
        assert.doesNotMatch(text, /final/, text);
      }
      if (strategy === "one-turn") {
        assert.match(text, /^1\. document \d+: final [\d.]+ \(relevance [\d.]+, depth [\d.]+, /m);
      }
      if (strategy === "item") assert.match(text, /^1\. document \d+: score 0?\.\d+|score 1/m);
    }
  } finally {
    await close();
  }
});

Deno.test("MCP ask's text ends with the cost its structuredContent holds", async () => {
  await using sift = serveSift({ MODEL_PRICES: '{"sift-offline": {"input": 1, "output": 2}}' });
  const { client, close } = await connectMcp(sift.url);
  try {
    await client.callTool({
      name: "ingest",
      arguments: { documents: DOCUMENTS.map((text, i) => ({ id: `d${i}`, text })) },
    });
    const result = await client.callTool({
      name: "ask",
      arguments: { query: RERANK_QUERY, preset: "none" },
    });
    assert.ok(!result.isError, textOf(result));
    const { cost_usd: cost } = result.structuredContent as Structured;
    assert.ok(cost > 0, String(cost));
    const line = textOf(result).split("\n").at(-1)!;
    const match = line.match(/^Cost: \$(\d+\.\d+) \(USD, every step\)$/);
    assert.ok(match, line);
    assert.ok(Math.abs(Number(match[1]) - cost) / cost < 0.01, `${line} vs ${cost}`);
  } finally {
    await close();
  }
});
