/**
 * sift as an MCP server, checked as an agent builder would: the official
 * SDK's client (`Client` + `StreamableHTTPClientTransport`) against a real
 * `main.ts` over the demo corpus and the offline model.
 */
import assert from "node:assert/strict";
import { assertFourTools, connectMcp, textOf } from "../helpers/mcp_client.ts";
import { startService } from "./service.ts";

const API_KEY = "sk-sift-mcp-test";

// deno-lint-ignore no-explicit-any
type Structured = any;

Deno.test("the official MCP client lists, asks, reranks, reads and is refused over /mcp", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-mcp-" });
  try {
    await using sift = await startService({ SIFT_DATA_DIR: dataDir, API_KEYS: API_KEY });
    const { client, close } = await connectMcp(sift.url, { apiKey: API_KEY });
    try {
      await t.step(
        "lists the four tools, each with input and output schemas, a title and hints",
        async () => {
          const tools = await assertFourTools(client);
          const ingest = tools.find((tool) => tool.name === "ingest")!;
          assert.equal(ingest.annotations?.readOnlyHint, false);
          assert.equal(ingest.annotations?.destructiveHint, false);
          assert.equal(ingest.annotations?.idempotentHint, true);
          const ask = tools.find((tool) => tool.name === "ask")!;
          const presets = (ask.inputSchema.properties?.preset as { enum: string[] }).enum;
          for (const preset of ["none", "one-turn", "two-turn", "fusion", "item", "tot"]) {
            assert.ok(presets.includes(preset), preset);
          }
        },
      );

      await t.step(
        "search returns passages with ids, titles, scores and sift:// URIs",
        async () => {
          const result = await client.callTool({
            name: "search",
            arguments: { query: "reciprocal rank fusion", top_k: 3 },
          });
          assert.ok(!result.isError, textOf(result));
          const { results } = result.structuredContent as Structured;
          assert.equal(results.length, 3);
          assert.match(results[0].uri, /^sift:\/\/default\/.+%23\d+$/);
          assert.equal(typeof results[0].score, "number");
          assert.match(textOf(result), /\[1\]/);
        },
      );

      await t.step(
        "ask (two-turn) answers with citations that resources/read opens, progress first",
        async () => {
          const progress: string[] = [];
          let resultAt = -1;
          const result = await client.callTool(
            {
              name: "ask",
              arguments: { query: "What is reciprocal rank fusion?", preset: "two-turn" },
            },
            undefined,
            { onprogress: (note) => progress.push(note.message ?? "") },
          );
          resultAt = progress.length;
          assert.ok(!result.isError, textOf(result));
          const answer = result.structuredContent as Structured;
          assert.ok(answer.answered, answer.answer);
          assert.ok(answer.citations.length > 0, answer.answer);
          assert.ok(answer.steps.some((step: { name: string }) => step.name === "rerank"));
          // Its cost, as /v1/query's usage event gives it: the offline model is free.
          assert.equal(answer.cost_usd, 0);
          assert.ok(answer.steps.every((step: { cost_usd?: unknown }) => step.cost_usd === 0));
          // Retrieval, rubric, rerank, then answer tokens, all before the result came back.
          assert.ok(resultAt >= 4, progress.join(" | "));
          assert.match(progress[0]!, /^retrieval done: \d+ passages$/);
          assert.match(progress[1]!, /^rubric: /);
          assert.match(progress[2]!, /^reranked: kept \d+/);
          assert.ok(answer.answer.startsWith(progress.slice(3).join("").slice(0, 10)));
          for (const citation of answer.citations) {
            const read = await client.readResource({ uri: citation.uri });
            const source = answer.sources[citation.index - 1];
            assert.equal(read.contents.length, 1);
            assert.equal(read.contents[0]!.uri, citation.uri);
            assert.equal((read.contents[0] as { text: string }).text, source.text);
            assert.equal(read.contents[0]!._meta?.doc_id, citation.doc_id);
          }
        },
      );

      await t.step(
        "rerank explains: per-criterion contributions sum to each final score",
        async () => {
          const result = await client.callTool({
            name: "rerank",
            arguments: {
              query: "How does reciprocal rank fusion combine rankings?",
              strategy: "two-turn",
              documents: [
                "Reciprocal rank fusion sums 1 / (k + rank) over every ranking a document appears in.",
                "Bananas are a good source of potassium.",
                {
                  id: "rrf-k",
                  text: "RRF uses k = 60 so that top ranks do not dominate the fused score.",
                },
              ],
            },
          });
          assert.ok(!result.isError, textOf(result));
          const reranked = result.structuredContent as Structured;
          assert.ok(reranked.rubric.criteria.length > 0);
          assert.ok(reranked.results.length > 0);
          for (const document of reranked.results) {
            const sum = Object.values(document.contributions as Record<string, number>)
              .reduce((total, part) => total + part, 0);
            assert.ok(Math.abs(sum - document.scores.final) < 1e-4, JSON.stringify(document));
          }
          const kept = reranked.results.length + reranked.discarded.length;
          assert.equal(kept, 3);
          for (const discarded of reranked.discarded) assert.ok(discarded.reason.length > 0);
        },
      );

      await t.step("bad arguments come back as a tool error naming the field", async () => {
        const result = await client.callTool({
          name: "search",
          arguments: { query: "rrf", top_k: 1000 },
        });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /top_k/);
        const empty = await client.callTool({
          name: "rerank",
          arguments: { query: "rrf", documents: [] },
        });
        assert.equal(empty.isError, true);
        assert.match(textOf(empty), /documents/);
        const misspelled = await client.callTool({
          name: "search",
          arguments: { query: "rrf", topk: 3 },
        });
        assert.equal(misspelled.isError, true);
        assert.match(textOf(misspelled), /topk/);
      });

      await t.step(
        "ingest writes a document that resources/list and resources/read then show",
        async () => {
          const result = await client.callTool({
            name: "ingest",
            arguments: {
              documents: [{ id: "mcp-note", title: "MCP note", text: "sift speaks MCP on /mcp." }],
            },
          });
          assert.ok(!result.isError, textOf(result));
          assert.equal(
            (result.structuredContent as Structured).documents[0].uri,
            "sift://default/mcp-note",
          );
          const listed = [];
          let cursor: string | undefined;
          do {
            const page = await client.listResources(cursor ? { cursor } : {});
            listed.push(...page.resources);
            cursor = page.nextCursor;
          } while (cursor);
          const note = listed.find((resource) => resource.uri === "sift://default/mcp-note");
          assert.equal(note?.title, "MCP note");
          assert.equal(new Set(listed.map((resource) => resource.uri)).size, listed.length);
          const read = await client.readResource({ uri: "sift://default/mcp-note" });
          assert.equal((read.contents[0] as { text: string }).text, "sift speaks MCP on /mcp.");
          assert.equal(read.contents[0]!.uri, "sift://default/mcp-note%230");
          assert.equal(read.contents[0]!._meta?.title, "MCP note");
        },
      );
    } finally {
      await close();
    }

    const initialize = (headers: Record<string, string>, version = "2025-06-18") =>
      fetch(`${sift.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: version,
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        }),
      });

    await t.step("a missing key gets 401 with WWW-Authenticate", async () => {
      const response = await initialize({});
      await response.body?.cancel();
      assert.equal(response.status, 401);
      assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer/);
    });

    await t.step("a foreign Origin gets 403", async () => {
      const response = await initialize({
        authorization: `Bearer ${API_KEY}`,
        origin: "https://evil.example",
      });
      await response.body?.cancel();
      assert.equal(response.status, 403);
    });

    await t.step("a client of the previous protocol revision is answered in it", async () => {
      const response = await initialize({ authorization: `Bearer ${API_KEY}` }, "2025-03-26");
      assert.equal(response.status, 200);
      const body = await response.text();
      assert.match(body, /"protocolVersion":"2025-03-26"/);
    });

    await t.step("GET /mcp is 405: stateless, no standalone stream", async () => {
      const response = await fetch(`${sift.url}/mcp`, {
        headers: { authorization: `Bearer ${API_KEY}`, accept: "text/event-stream" },
      });
      await response.body?.cancel();
      assert.equal(response.status, 405);
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
