import assert from "node:assert/strict";
import OpenAI, { APIConnectionTimeoutError } from "openai";
import { serveOfflineModel } from "./scripts/offline-model.ts";
Deno.test("dbg", async () => {
  await using server = await serveOfflineModel({ port: 0, faults: "timeout=1" });
  console.log("listening");
  const openai = new OpenAI({
    apiKey: "offline",
    baseURL: server.baseURL,
    timeout: 200,
    maxRetries: 0,
  });
  await assert.rejects(
    openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    APIConnectionTimeoutError,
  );
  console.log("rejected");
});
