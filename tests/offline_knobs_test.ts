import assert from "node:assert/strict";
import OpenAI, { APIConnectionTimeoutError, RateLimitError } from "openai";
import { queryVariationsPrompt } from "../prompts/query-variations.ts";
import { serveOfflineModel } from "../scripts/offline-model.ts";
import { drawFault, parseFaults, parseLatency, seededRandom } from "../shared/offline-knobs.ts";
import { createOfflineModel } from "../providers/offline/model.ts";
import { renderTemplate } from "../shared/llm/prompt.ts";

const MESSAGES = [{
  role: "user" as const,
  content: "Reciprocal rank fusion merges several rankings of documents into one list.",
}];

function client(
  fetch: typeof globalThis.fetch,
  options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {},
) {
  return new OpenAI({ apiKey: "offline", baseURL: "http://offline.invalid/v1", fetch, ...options });
}

Deno.test("parseLatency reads ms and s, and either knob may be omitted", () => {
  assert.deepEqual(parseLatency("ttft=300ms,tps=80"), { ttftMs: 300, tokensPerSecond: 80 });
  assert.deepEqual(parseLatency("ttft=0.3s"), { ttftMs: 300, tokensPerSecond: Infinity });
  assert.deepEqual(parseLatency(" tps=12.5 "), { ttftMs: 0, tokensPerSecond: 12.5 });
  assert.deepEqual(parseLatency(""), { ttftMs: 0, tokensPerSecond: Infinity });
});

Deno.test("parseLatency rejects bad strings with the reason", () => {
  assert.throws(() => parseLatency("ttft=fast"), /ttft "fast" is not a duration/);
  assert.throws(() => parseLatency("tps=0"), /tps "0" is not a positive number/);
  assert.throws(() => parseLatency("speed=3"), /unknown latency knob "speed"; known: ttft, tps/);
  assert.throws(() => parseLatency("ttft"), /is not of the form name=value/);
  assert.throws(() => parseLatency("tps=1,tps=2"), /"tps" is given twice/);
});

Deno.test("parseFaults reads probabilities and rejects bad ones", () => {
  assert.deepEqual(parseFaults("http429=0.2,http500=0.1,timeout=0.05,malformed=0.2,cut=0.1"), {
    http429: 0.2,
    http500: 0.1,
    timeout: 0.05,
    malformed: 0.2,
    cut: 0.1,
    empty: 0,
  });
  assert.throws(
    () => parseFaults("foo=0.1"),
    /unknown fault "foo"; known: http429, http500, timeout, malformed, cut/,
  );
  assert.throws(() => parseFaults("cut=1.5"), /from 0 to 1/);
  assert.throws(() => parseFaults("cut=-0.1"), /from 0 to 1/);
  assert.throws(() => parseFaults("cut=0.6,timeout=0.6"), /add up to 1\.2/);
  assert.throws(() => createOfflineModel({ faults: "nope" }), /name=value/);
});

Deno.test("the seeded fault draws repeat for the same seed", () => {
  const faults = parseFaults("http429=0.3,cut=0.3");
  const sequence = (seed: number) => {
    const random = seededRandom(seed);
    return Array.from({ length: 20 }, () => drawFault(faults, random));
  };
  assert.deepEqual(sequence(7), sequence(7));
  assert.notDeepEqual(sequence(7), sequence(8));
  assert.ok(sequence(7).includes(undefined) && sequence(7).includes("cut"));
});

Deno.test("http429=1: the SDK tries three times, then throws RateLimitError", async () => {
  const model = createOfflineModel({ faults: "http429=1" });
  let attempts = 0;
  const counting: typeof fetch = (input, init) => {
    attempts++;
    return model.fetch(input, init);
  };
  await assert.rejects(
    client(counting, { maxRetries: 2 }).chat.completions.create({ model: "m", messages: MESSAGES }),
    RateLimitError,
  );
  assert.equal(attempts, 3);
});

Deno.test("timeout=1 over HTTP: the SDK's own timeout ends the call", async () => {
  await using server = await serveOfflineModel({ port: 0, faults: "timeout=1" });
  const openai = new OpenAI({
    apiKey: "offline",
    baseURL: server.baseURL,
    timeout: 200,
    maxRetries: 0,
  });
  const started = performance.now();
  await assert.rejects(
    openai.chat.completions.create({ model: "m", messages: MESSAGES }),
    APIConnectionTimeoutError,
  );
  assert.ok(performance.now() - started >= 190);
});

Deno.test("cut=1: a streamed completion over HTTP breaks off mid-way", async () => {
  await using server = await serveOfflineModel({ port: 0, faults: "cut=1" });
  const openai = new OpenAI({ apiKey: "offline", baseURL: server.baseURL, maxRetries: 0 });
  const stream = await openai.chat.completions.create({
    model: "m",
    messages: MESSAGES,
    stream: true,
  });
  const deltas: string[] = [];
  await assert.rejects(async () => {
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? "");
  });
  assert.ok(deltas.join("").length > 0, "some content arrived before the cut");
  // In-process, the body stream errors the same way.
  const model = createOfflineModel({ faults: "cut=1" });
  const inProcess = await client(model.fetch).chat.completions.create({
    model: "m",
    messages: MESSAGES,
    stream: true,
  });
  await assert.rejects(async () => {
    for await (const _ of inProcess) { /* drain */ }
  }, /Stream cut mid-way/);
  // Non-streaming: the JSON body stops halfway, so the SDK cannot parse it.
  await assert.rejects(
    client(model.fetch, { maxRetries: 0 }).chat.completions.create({
      model: "m",
      messages: MESSAGES,
    }),
    SyntaxError,
  );
});

Deno.test("malformed=1: query variations come back as invalid JSON", async () => {
  const model = createOfflineModel({ faults: "malformed=1" });
  const completion = await client(model.fetch).chat.completions.create({
    model: "m",
    messages: [
      { role: "system", content: renderTemplate(queryVariationsPrompt.system, { count: 4 }) },
      {
        role: "user",
        content: renderTemplate(queryVariationsPrompt.user, {
          query: "How does rank fusion work?",
          format: renderTemplate(queryVariationsPrompt.formatJson, { count: 4 }),
        }),
      },
    ],
    response_format: { type: "json_object" },
  }, { headers: { "x-sift-prompt": "query-variations@1" } });
  const content = completion.choices[0]?.message.content ?? "";
  assert.ok(content.startsWith('{"queries"'));
  assert.throws(() => JSON.parse(content), SyntaxError);
});

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

Deno.test("ttft=200ms delays the reply and the first streamed token", async () => {
  const fast = client(createOfflineModel().fetch);
  const slow = client(createOfflineModel({ latency: "ttft=200ms" }).fetch);
  const call = (openai: OpenAI) => () =>
    openai.chat.completions.create({ model: "m", messages: MESSAGES });
  const firstToken = (openai: OpenAI) => async () => {
    const stream = await openai.chat.completions.create({
      model: "m",
      messages: MESSAGES,
      stream: true,
    });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
  };
  // Lower bounds only: a delay is never shorter on a loaded machine, while comparing with
  // the unpaced model's time would fail when that one is slowed down too.
  const [fastCall, slowCall] = [await timed(call(fast)), await timed(call(slow))];
  const [fastStream, slowStream] = [await timed(firstToken(fast)), await timed(firstToken(slow))];
  assert.ok(slowCall >= 190, `${slowCall}ms (unpaced: ${fastCall}ms)`);
  assert.ok(slowStream >= 190, `${slowStream}ms (unpaced: ${fastStream}ms)`);
});

Deno.test("tps paces streamed tokens", async () => {
  const paced = client(createOfflineModel({ latency: "tps=200" }).fetch);
  // The reply has 14 tokens; all but the first group of up to three words wait ~5ms per token.
  const elapsed = await timed(async () => {
    const stream = await paced.chat.completions.create({
      model: "m",
      messages: MESSAGES,
      stream: true,
    });
    for await (const _ of stream) { /* drain */ }
  });
  assert.ok(elapsed >= 40, `${elapsed}ms`);
});
