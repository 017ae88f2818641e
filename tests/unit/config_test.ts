import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { ConfigError } from "../../shared/errors.ts";

/** Asserts that `env` is refused with a message naming `variable`. */
function assertRefused(env: Record<string, string>, variable: string) {
  assert.throws(
    () => readConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
      assert.match(error.message, new RegExp(`\\b${variable}\\b`), error.message);
      return true;
    },
  );
}

Deno.test("readConfig() of an empty environment runs everything offline on port 8787", () => {
  const config = readConfig({});
  assert.equal(config.port, 8787);
  assert.equal(config.llm.provider, "offline");
  assert.equal(config.llm.apiKey, undefined);
  assert.equal(config.llm.structuredOutputs, true);
  assert.equal(config.redis, undefined);
  assert.equal(config.vector, undefined);
  assert.deepEqual(config.apiKeys, []);
  assert.equal(config.demoCorpus, true);
  assert.ok(config.chunking.overlap < config.chunking.size);
  assert.notEqual(config.llm.judgeModel, config.llm.model, "the judge is another model");
});

Deno.test("readConfig() accepts OPENAI_API_KEY as the LLM key", () => {
  const config = readConfig({ OPENAI_API_KEY: "sk-test", LLM_MODEL: "gpt-4o" });
  assert.equal(config.llm.provider, "openai-compatible");
  assert.equal(config.llm.apiKey, "sk-test");
  assert.equal(config.llm.model, "gpt-4o");
});

Deno.test("readConfig() prefers LLM_API_KEY over OPENAI_API_KEY", () => {
  const config = readConfig({ OPENAI_API_KEY: "sk-openai", LLM_API_KEY: "sk-llm" });
  assert.equal(config.llm.apiKey, "sk-llm");
});

Deno.test("readConfig() switches to a real provider for LLM_BASE_URL alone", () => {
  const config = readConfig({ LLM_BASE_URL: "http://localhost:11434/v1" });
  assert.equal(config.llm.provider, "openai-compatible");
  assert.equal(config.llm.baseURL, "http://localhost:11434/v1");
});

Deno.test("readConfig() counts empty and blank strings as unset", () => {
  const config = readConfig({
    LLM_API_KEY: "",
    OPENAI_API_KEY: "  ",
    PORT: "",
    LLM_BASE_URL: "",
    UPSTASH_REDIS_REST_URL: "",
    UPSTASH_REDIS_REST_TOKEN: "",
    LLM_STRUCTURED_OUTPUTS: "",
  });
  assert.equal(config.llm.provider, "offline");
  assert.equal(config.port, 8787);
  assert.equal(config.redis, undefined);
  assert.equal(config.llm.structuredOutputs, true);
});

Deno.test("readConfig() reads numbers, booleans and the API key list", () => {
  const config = readConfig({
    PORT: "9000",
    LLM_STRUCTURED_OUTPUTS: "false",
    EMBEDDING_DIMENSIONS: "256",
    API_KEYS: " k1, ,k2 ",
    DEMO_CORPUS: "0",
  });
  assert.equal(config.port, 9000);
  assert.equal(config.llm.structuredOutputs, false);
  assert.equal(config.embeddings.dimensions, 256);
  assert.deepEqual(config.apiKeys, ["k1", "k2"]);
  assert.equal(config.demoCorpus, false);
});

Deno.test("readConfig() refuses an invalid PORT, naming it", () => {
  for (const port of ["abc", "0", "70000", "80.5"]) assertRefused({ PORT: port }, "PORT");
});

Deno.test("readConfig() refuses an invalid LLM_STRUCTURED_OUTPUTS, naming it", () => {
  assertRefused({ LLM_STRUCTURED_OUTPUTS: "maybe" }, "LLM_STRUCTURED_OUTPUTS");
});

Deno.test("readConfig() refuses an invalid EMBEDDING_DIMENSIONS, naming it", () => {
  for (const value of ["lots", "0", "-3", "1.5"]) {
    assertRefused({ EMBEDDING_DIMENSIONS: value }, "EMBEDDING_DIMENSIONS");
  }
});

Deno.test("readConfig() refuses half an Upstash pair, naming the missing variable", () => {
  assertRefused({ UPSTASH_REDIS_REST_URL: "https://r.upstash.io" }, "UPSTASH_REDIS_REST_TOKEN");
  assertRefused({ UPSTASH_REDIS_REST_TOKEN: "t" }, "UPSTASH_REDIS_REST_URL");
  assertRefused({ UPSTASH_VECTOR_REST_URL: "https://v.upstash.io" }, "UPSTASH_VECTOR_REST_TOKEN");
  assertRefused({ UPSTASH_VECTOR_REST_TOKEN: "t" }, "UPSTASH_VECTOR_REST_URL");
});

Deno.test("readConfig() takes a complete Upstash pair", () => {
  const config = readConfig({
    UPSTASH_REDIS_REST_URL: "https://r.upstash.io",
    UPSTASH_REDIS_REST_TOKEN: "t",
  });
  assert.deepEqual(config.redis, { url: "https://r.upstash.io", token: "t" });
});

Deno.test("readConfig() refuses a non-http LLM_BASE_URL and a chunk overlap ≥ size", () => {
  assertRefused({ LLM_BASE_URL: "ftp://example.com" }, "LLM_BASE_URL");
  assertRefused({ CHUNK_SIZE: "100", CHUNK_OVERLAP: "100" }, "CHUNK_OVERLAP");
});

Deno.test("readConfig() reads RATE_LIMIT_PER_MINUTE as a positive whole number; unset means no limit", () => {
  assert.equal(readConfig({}).rateLimit, undefined);
  assert.equal(readConfig({ RATE_LIMIT_PER_MINUTE: "" }).rateLimit, undefined);
  assert.deepEqual(readConfig({ RATE_LIMIT_PER_MINUTE: "30" }).rateLimit, { perMinute: 30 });
  for (const value of ["0", "-5", "2.5", "thirty"]) {
    assertRefused({ RATE_LIMIT_PER_MINUTE: value }, "RATE_LIMIT_PER_MINUTE");
  }
});

Deno.test("readConfig() refuses API_KEYS with no usable key, naming it", () => {
  for (const value of [",", " , ,", ",,,"]) {
    assert.throws(
      () => readConfig({ API_KEYS: value }),
      (error: Error) =>
        error instanceof ConfigError && /API_KEYS: must hold at least one key/.test(error.message),
      value,
    );
  }
});
