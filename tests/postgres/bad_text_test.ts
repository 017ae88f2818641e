/**
 * Bad text on Postgres (#41): a NUL or a lone surrogate in a document or a
 * filter is a 400 naming the field, as on the embedded index, never a 502 or
 * a retryable 503 (clients would retry forever). Past the door, a value the
 * server refuses as data (SQLSTATE class 22) is a 400 too. On each of
 * servers.ts's servers (PGlite, and native Postgres as a role that is not a
 * superuser), one per file.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { readConfig } from "../../shared/config.ts";
import { SiftError } from "../../shared/errors.ts";
import { Runtime } from "../../compose/runtime.ts";
import { postgresPool } from "../../adapters/postgres/from-env.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { assertBadTextRefused } from "../routes/bad-text-cases.ts";
import { testApp } from "../routes/helpers.ts";
import { once, postgresServers } from "./servers.ts";

const chunk = (text: string, metadata: Record<string, unknown> = {}) => ({
  id: "harbour#0",
  text,
  vector: [1, 0, 0, 1],
  metadata: { doc_id: "harbour", chunk_index: 0, ...metadata },
});

async function refused(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof SiftError, `not refused: ${error}`);
  return error;
}

for (const server of postgresServers("bad_text_test")) {
  const db = once(() => server.start());
  const test = (name: string, fn: (url: string) => Promise<void>) =>
    Deno.test({
      name: `${name} (${server.name})`,
      ignore: server.ignore,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => await fn((await db()).url),
    });

  test("a NUL or a lone surrogate in text, title, metadata or a filter is a 400 naming the field", async (url) => {
    const env = { DEMO_CORPUS: "false", DATABASE_URL: url };
    const pool = postgresPool();
    const { post } = testApp(env, createSiftApp({ runtime: new Runtime({ postgres: pool }) }));
    try {
      await assertBadTextRefused(post);
      const fine = await post("/v1/documents", {
        documents: [{ id: "harbour", text: "The harbour opens at dawn 😀.", title: "Kiel" }],
      });
      assert.equal(fine.status, 201, await fine.text());
      // The question is never stored nor compared as a value: a NUL in it harms no index.
      const asked = await post("/v1/search", { query: "harbour\u0000 dawn", mode: "sparse" });
      const found = await asked.json() as { results: { doc_id: string }[] };
      assert.equal(asked.status, 200, JSON.stringify(found));
      assert.deepEqual(found.results.map((hit) => hit.doc_id), ["harbour"]);
    } finally {
      await (pool(readConfig(env), env) as PostgresIndex).close();
    }
  });

  test("past the door, a value the server refuses as data (class 22) is a 400, not retryable", async (url) => {
    const index = new PostgresIndex({ url });
    try {
      for (
        const write of [
          () => index.upsert([chunk("The harbour\u0000")], { namespace: "bad" }),
          () => index.upsert([chunk("fine", { port: "Kiel\u0000" })], { namespace: "bad" }),
          () => index.upsert([chunk("fine", { port: "Kiel\ud800" })], { namespace: "bad" }),
        ]
      ) {
        const error = await refused(write());
        assert.equal(error.status, 400, error.message);
        assert.match(error.message, /invalid data \(SQLSTATE 22/);
        assert.equal(error.isRetryable, false);
      }
      const filtered = await refused(index.query({
        text: "harbour",
        vector: [1, 0, 0, 1],
        mode: "hybrid",
        topK: 3,
        namespace: "bad",
        filter: { port: "Kiel\u0000" },
      }));
      assert.equal(filtered.status, 400, filtered.message);
      assert.match(filtered.message, /invalid data \(SQLSTATE 22/);
      // Nothing was stored, and the pool serves on.
      assert.equal(await index.count({ namespace: "bad" }), 0);
      await index.upsert([chunk("The harbour opens at dawn.")], { namespace: "bad" });
      assert.equal(await index.count({ namespace: "bad" }), 1);
    } finally {
      await index.close();
    }
  });

  test("zz: stops the server", async () => {
    await (await db())[Symbol.asyncDispose]();
  });
}
