import { withoutDemoCorpus } from "../demo/lazy-index.ts";
import type { Deps } from "../deps.ts";
import type { VectorIndex } from "../vector/port.ts";

/**
 * The one place a tenant scopes what is stored. Auth resolves the tenant from
 * the key and hands the request these deps, so every route, MCP tool and
 * step reads and writes through them and none can forget the tenant:
 *
 * - index namespaces: `<tenant>:<namespace>`. Namespace names a caller may
 *   give hold no `:` (`namespaceSchema`), nor do tenant names, so no name a
 *   caller chooses reaches another tenant's, and a bare key's names (no `:`)
 *   are never a tenant's. Upstash Vector and the Durable Object take `:`.
 * - cache entries (cached results, evaluation runs and their reports):
 *   keys start `tenant/<tenant>/`. A cache scope (`x-sift-cache-scope`) holds
 *   no `/` and internal keys never start with `tenant/`, so these keys are
 *   the tenant's alone, whatever scope a caller sends.
 *
 * Jobs carry their tenant in the record (see `jobs/types.ts`).
 */
export function scopeDepsToTenant(deps: Deps, tenant: string): Deps {
  return {
    ...deps,
    tenant,
    // Behind AI Gateway, each model call's metadata names the tenant beside the step.
    llm: { ...deps.llm, gatewayMetadata: { tenant } },
    judge: { ...deps.judge, gatewayMetadata: { tenant } },
    // The demo corpus is loaded for keys without a tenant: a tenant never waits on it.
    index: tenantIndex(withoutDemoCorpus(deps.index), tenant),
    cache: deps.cache.withKeyPrefix(tenantCachePrefix(tenant)),
  };
}

/** The namespace a tenant's `namespace` is stored under. */
export function tenantNamespace(tenant: string, namespace: string): string {
  return `${tenant}:${namespace}`;
}

export function tenantCachePrefix(tenant: string): string {
  return `tenant/${tenant}/`;
}

/** `index` seen by one tenant: every namespace it names is its own. */
export function tenantIndex(index: VectorIndex, tenant: string): VectorIndex {
  const scoped = <T extends { namespace: string }>(options: T): T => ({
    ...options,
    namespace: tenantNamespace(tenant, options.namespace),
  });
  return {
    name: index.name,
    upsert: (chunks, options) => index.upsert(chunks, scoped(options)),
    replaceDocuments: (docIds, chunks, options) =>
      index.replaceDocuments(docIds, chunks, scoped(options)),
    query: (query) => index.query(scoped(query)),
    deleteDocument: (docId, options) => index.deleteDocument(docId, scoped(options)),
    count: (options) => index.count(scoped(options)),
    listDocuments: (options) => index.listDocuments(scoped(options)),
    getDocument: (docId, options) => index.getDocument(docId, scoped(options)),
  };
}

/** `{tenant}` when the deps are a tenant's, to carry on a queue message; else nothing. */
export function tenantFieldOf(deps: Pick<Deps, "tenant">): { tenant?: string } {
  return deps.tenant ? { tenant: deps.tenant } : {};
}
