import assert from "node:assert/strict";
import { startupHint } from "../../adapters/deno/startup-hint.ts";

Deno.test("startupHint() is a plain curl without API_KEYS", () => {
  assert.deepEqual(startupHint({ url: "http://127.0.0.1:8787", apiKeys: [] }), [
    `try: curl -N http://127.0.0.1:8787/v1/query -H 'content-type: application/json' -d '{"query":"What is sift?"}'`,
  ]);
});

Deno.test("with API_KEYS, the hint sends $SIFT_API_KEY as a bearer token and never prints a key", () => {
  const lines = startupHint({ url: "http://127.0.0.1:8787", apiKeys: ["sk-secret-1", "sk-2"] });
  const text = lines.join("\n");
  assert.match(text, /-H "Authorization: Bearer \$SIFT_API_KEY"/);
  assert.match(text, /export SIFT_API_KEY=/);
  assert.doesNotMatch(text, /sk-secret-1|sk-2/);
});
