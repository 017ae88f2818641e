import assert from "node:assert/strict";
import { LocalIndex } from "../../adapters/vector-index/local.ts";
import { MemoryCache } from "../../shared/cache/memory.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import { cacheScopeOf } from "../../shared/cache/scope.ts";
import { TENANT_NAME } from "../../shared/tenants/keys.ts";
import { tenantCachePrefix, tenantIndex, tenantNamespace } from "../../shared/tenants/scope.ts";

const chunk = (docId: string) => ({
  id: `${docId}#0`,
  text: `text of ${docId}`,
  vector: [1, 0, 0],
  metadata: { doc_id: docId, chunk_index: 0 },
});

Deno.test("tenantIndex() gives each tenant namespaces of its own over one index", async () => {
  const shared = new LocalIndex();
  const acme = tenantIndex(shared, "acme");
  const globex = tenantIndex(shared, "globex");
  await acme.upsert([chunk("a")], { namespace: "default" });
  await globex.upsert([chunk("g")], { namespace: "default" });
  assert.equal(await acme.count({ namespace: "default" }), 1);
  assert.equal(await shared.count({ namespace: "default" }), 0, "a bare key sees neither");
  const hits = await globex.query({
    text: "text",
    vector: [1, 0, 0],
    mode: "dense",
    topK: 10,
    namespace: "default",
  });
  assert.deepEqual(hits.map((hit) => hit.doc_id), ["g"]);
  assert.equal(await globex.deleteDocument("a", { namespace: "default" }), 0);
  assert.equal(await acme.count({ namespace: "default" }), 1);
});

Deno.test("no namespace or cache scope a caller may name reaches a tenant's storage", () => {
  // Names a caller may give hold no ':' and no '/', and neither do tenant names.
  for (const name of ["acme:default", "acme/x", "tenant/acme"]) {
    assert.equal(namespaceSchema.safeParse(name).success, false, name);
    assert.equal(TENANT_NAME.test(name), false, name);
  }
  assert.throws(() => cacheScopeOf("a/tenant/acme/"));
  // So `<tenant>:<namespace>` is one-to-one, and never a bare key's namespace.
  assert.equal(tenantNamespace("acme", "default"), "acme:default");
  assert.notEqual(tenantNamespace("a", "b-c"), tenantNamespace("a-b", "c"));
  assert.equal(tenantCachePrefix("acme"), "tenant/acme/");
});

Deno.test("two tenants computing the same cache key at once each compute their own", async () => {
  const cache = new ResilientCache(new MemoryCache());
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const computeFor = (tenant: string) => async () => (await gate, `${tenant}'s result`);
  const [acme, globex, acmeAgain] = [
    cache.withKeyPrefix(tenantCachePrefix("acme")).getOrSet("checkpoint:run-1", computeFor("acme")),
    cache.withKeyPrefix(tenantCachePrefix("globex")).getOrSet(
      "checkpoint:run-1",
      computeFor("globex"),
    ),
    cache.withKeyPrefix(tenantCachePrefix("acme")).getOrSet("checkpoint:run-1", computeFor("x")),
  ];
  release();
  assert.equal((await acme).value, "acme's result");
  assert.equal((await globex).value, "globex's result");
  assert.equal((await acmeAgain).value, "acme's result", "within a tenant, computed once");
});
