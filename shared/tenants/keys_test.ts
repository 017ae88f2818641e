import assert from "node:assert/strict";
import { readConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import { keyOfTenant, parseApiKeys } from "./keys.ts";

Deno.test("parseApiKeys() reads bare keys and key:tenant entries", () => {
  assert.deepEqual(parseApiKeys(" ka:acme, kb:globex ,kc:acme,kz,, "), [
    { key: "ka", tenant: "acme" },
    { key: "kb", tenant: "globex" },
    { key: "kc", tenant: "acme" },
    { key: "kz" },
  ]);
  // The tenant is what follows the last colon: a key may hold colons of its own.
  assert.deepEqual(parseApiKeys("sk:live:abc:acme"), [{ key: "sk:live:abc", tenant: "acme" }]);
});

Deno.test("a malformed tenant stops the start, naming API_KEYS and the entry, never the key", () => {
  for (const value of ["ka:", "ka:ac me", "ka:acme/x", ":acme", "ka:" + "t".repeat(65)]) {
    assert.throws(
      () => readConfig({ API_KEYS: `good,${value}` }),
      (error: unknown) =>
        error instanceof ConfigError && /API_KEYS: entry 2: "key:tenant"/.test(error.message) &&
        !error.message.includes("good"),
      value,
    );
  }
});

Deno.test("keyOfTenant() picks a key of the tenant, or a bare key for no tenant", () => {
  const entries = parseApiKeys("ka:acme,kz,kb:globex,kc:acme");
  assert.equal(keyOfTenant(entries, "acme"), "ka");
  assert.equal(keyOfTenant(entries, "globex"), "kb");
  assert.equal(keyOfTenant(entries, undefined), "kz");
  assert.equal(keyOfTenant(entries, "initech"), undefined);
  assert.equal(keyOfTenant(parseApiKeys("ka:acme"), undefined), undefined);
});
