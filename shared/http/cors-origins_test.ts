import assert from "node:assert/strict";
import { corsOriginsSchema } from "./cors-origins.ts";

Deno.test("corsOriginsSchema reads comma-separated origins, dropping a trailing slash", () => {
  assert.deepEqual(corsOriginsSchema.parse(" https://app.example, http://localhost:5173/ ,"), [
    "https://app.example",
    "http://localhost:5173",
  ]);
  assert.deepEqual(corsOriginsSchema.parse(""), []);
});

Deno.test("corsOriginsSchema refuses a URL with a path, or no scheme, naming the entry", () => {
  for (const bad of ["https://app.example/page", "app.example", "https://app.example,*"]) {
    const parsed = corsOriginsSchema.safeParse(bad);
    assert.ok(!parsed.success, bad);
    assert.match(parsed.error.issues[0]!.message, /is not an origin/);
  }
});
