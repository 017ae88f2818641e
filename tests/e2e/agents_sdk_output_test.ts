/**
 * The OpenAI Agents SDK, unmodified but for its client's base URL, against
 * sift on loopback with the offline model: an agent with an `outputType`
 * (a zod schema) gets a schema-valid object from sift's Responses API.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import {
  Agent,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
} from "@openai/agents";
import { z } from "zod";
import { createSiftApp } from "../../app.ts";

const Summary = z.object({
  summary: z.string(),
  points: z.array(z.string()),
  kind: z.enum(["method", "metric", "other"]),
});

Deno.test({
  name: "the Agents SDK's outputType gets a schema-valid object from sift",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const app = createSiftApp();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => app.fetch(request, {}),
    );
    try {
      setTracingDisabled(true);
      setOpenAIAPI("responses");
      setDefaultOpenAIClient(
        new OpenAI({ baseURL: `http://127.0.0.1:${server.addr.port}/v1`, apiKey: "unused" }),
      );
      const agent = new Agent({
        name: "summarizer",
        instructions: "Summarize what the sources say.",
        model: "sift-two-turn",
        outputType: Summary,
      });
      const result = await run(agent, "What is reciprocal rank fusion?");
      const parsed = Summary.safeParse(result.finalOutput);
      assert.ok(parsed.success, JSON.stringify(result.finalOutput));
      assert.match(parsed.data.summary, /reciprocal rank fusion|rankings/i);
    } finally {
      await server.shutdown();
    }
  },
});
