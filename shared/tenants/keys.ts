/**
 * `API_KEYS` entries: a bare key (`ka`), or a key and the tenant it belongs to
 * (`ka:acme`). A tenant name has the shape of a namespace name (letters,
 * digits, `_`, `-`), so it never holds the `:` or `/` that separate it from
 * what it scopes (see `scope.ts`).
 */
export type ApiKeyEntry = { key: string; tenant?: string };

export const TENANT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The entries of `API_KEYS`; a malformed tenant is named in the message
 * thrown (never the key itself, which must not reach a log).
 *
 * @example
 * parseApiKeys("ka:acme, kb"); // [{key: "ka", tenant: "acme"}, {key: "kb"}]
 */
export function parseApiKeys(value: string | undefined): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const colon = entry.lastIndexOf(":");
    if (colon < 0) {
      entries.push({ key: entry });
      continue;
    }
    const key = entry.slice(0, colon).trim();
    const tenant = entry.slice(colon + 1).trim();
    if (!key || !TENANT_NAME.test(tenant)) {
      throw new Error(
        `entry ${entries.length + 1}: "key:tenant" needs a key and a tenant of 1-64 letters, ` +
          "digits, '_' or '-'",
      );
    }
    entries.push({ key, tenant });
  }
  return entries;
}

/**
 * A key of `tenant` (the first listed), for work sift does later on a
 * tenant's behalf (a job, an evaluation's next slice): it is authenticated
 * again like any request, so the tenant is derived from a key on every hop.
 * `tenant` undefined means the keys without a tenant.
 */
export function keyOfTenant(
  entries: readonly ApiKeyEntry[],
  tenant: string | undefined,
): string | undefined {
  return entries.find((entry) => entry.tenant === tenant)?.key;
}

/**
 * Whose work the nightly evaluation is: a key without a tenant when there is
 * one (it evaluates the un-tenanted index), else the first key, and then its
 * tenant's index, cache and history.
 */
export function backgroundEntry(entries: readonly ApiKeyEntry[]): ApiKeyEntry | undefined {
  return entries.find((entry) => entry.tenant === undefined) ?? entries[0];
}
