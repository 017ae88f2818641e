import OpenAI from "openai";
import type { LlmContext } from "../../shared/llm/client.ts";

/** One chat call as the fake model saw it. */
export type FakeCall = {
  prompt: string;
  model: string;
  system: string;
  user: string;
  json: boolean;
  /** Every message sent, in order (a retry's correction turn is the last). */
  messages: { role: string; content: string }[];
};

/** A reply's text, or a status code for a failed call. */
export type FakeReply = (call: FakeCall) => string | number | Promise<string | number>;

/**
 * An `LlmContext` whose model is `reply`, behind the real `openai` SDK (an
 * injected `fetch`, no retries), recording every call.
 */
export function fakeLlm(
  reply: FakeReply,
  options: { model: string; structured?: boolean; usage?: { prompt: number; completion: number } },
): { llm: LlmContext; calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const usage = options.usage ?? { prompt: 10, completion: 2 };
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = await request.json();
    const call: FakeCall = {
      prompt: request.headers.get("x-sift-prompt") ?? "",
      model: body.model,
      system: body.messages[0].content,
      user: body.messages[1].content,
      json: body.response_format?.type === "json_schema",
      messages: body.messages,
    };
    calls.push(call);
    const content = await reply(call);
    if (typeof content === "number") {
      return Response.json({ error: { message: "boom" } }, { status: content });
    }
    return Response.json({
      id: "x",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
      },
    });
  };
  const client = new OpenAI({
    apiKey: "x",
    baseURL: "http://fake.invalid/v1",
    fetch,
    maxRetries: 0,
  });
  return {
    llm: { client, model: options.model, structuredOutputs: options.structured ?? false },
    calls,
  };
}
