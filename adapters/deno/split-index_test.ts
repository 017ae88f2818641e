import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { splitIndexMistake } from "./split-index.ts";

Deno.test("splitIndexMistake() refuses remote index steps beside a local index, not with Upstash", () => {
  assert.equal(splitIndexMistake(readConfig({})), undefined);
  assert.equal(
    splitIndexMistake(readConfig({ STEP_URL_RERANK: "http://127.0.0.1:8793" })),
    undefined,
  );
  assert.match(
    splitIndexMistake(readConfig({ STEP_URL_EMBED: "http://127.0.0.1:8791" }))!,
    /^sift cannot start: STEP_URL_EMBED would send/,
  );
  const upstash = {
    STEP_URL_FUSE: "http://127.0.0.1:8791",
    UPSTASH_VECTOR_REST_URL: "http://127.0.0.1:9999",
    UPSTASH_VECTOR_REST_TOKEN: "t",
  };
  assert.equal(splitIndexMistake(readConfig(upstash)), undefined);
});
