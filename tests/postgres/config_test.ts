/** `DATABASE_URL` in the config: what it selects, and the mistakes named at start. */
import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { Runtime } from "../../compose/runtime.ts";
import { postgresPool } from "../../adapters/postgres/from-env.ts";

const URL_ = "postgres://sift:secret@127.0.0.1:5432/sift";

Deno.test("DATABASE_URL selects the Postgres index, bounded by DATABASE_TIMEOUT_MS", () => {
  const config = readConfig({ DATABASE_URL: URL_, DATABASE_TIMEOUT_MS: "5000" });
  assert.deepEqual(config.database, { url: URL_, timeoutMs: 5000 });
  const deps = new Runtime({ postgres: postgresPool() }).deps(config);
  assert.equal(deps.index.name, "postgres");
  assert.equal(deps.providers.index, "postgres");
  assert.equal(readConfig({}).database, undefined);
});

Deno.test("a DATABASE_URL that is not postgres://, or beside Upstash Vector, is named", () => {
  assert.throws(
    () => readConfig({ DATABASE_URL: "mysql://x@y/z" }),
    /DATABASE_URL: must be a postgres/,
  );
  assert.throws(
    () =>
      readConfig({
        DATABASE_URL: URL_,
        UPSTASH_VECTOR_REST_URL: "https://vector.example.com",
        UPSTASH_VECTOR_REST_TOKEN: "t",
      }),
    /DATABASE_URL: one index at a time/,
  );
});

Deno.test("an entry without the Postgres client refuses DATABASE_URL instead of ignoring it", () => {
  assert.throws(
    () => new Runtime().deps(readConfig({ DATABASE_URL: URL_ })),
    /DATABASE_URL is set, but this entry has no Postgres client/,
  );
});
