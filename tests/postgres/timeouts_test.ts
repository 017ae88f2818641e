/**
 * Timeouts per statement, not per pool (#41): sift's sessions carry
 * `statement_timeout` and `lock_timeout` (from `DATABASE_TIMEOUT_MS`), so a
 * slow statement fails its own request with a 503 naming the index while
 * searches on other namespaces answer 200, and the pool serves on. Only a
 * connection that stops answering altogether has its pool retired, and a
 * pooler that refuses those settings at connect (PgBouncer) is still served.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { createSiftApp } from "../../app.ts";
import { startPgliteServer } from "../../scripts/pglite-server.ts";
import { readConfig } from "../../shared/config.ts";
import { Runtime } from "../../compose/runtime.ts";
import { IndexTimeoutError } from "../../adapters/postgres/errors.ts";
import { postgresPool } from "../../adapters/postgres/from-env.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { errorMessageOf, testApp, withoutErrorLogs } from "../routes/helpers.ts";
import { faultyProxy } from "./faulty-proxy.ts";
import { nativeServer, postgresServers } from "./servers.ts";

const native = nativeServer("timeouts_test");

const test = (name: string, ignore: boolean, fn: () => Promise<void>) =>
  Deno.test({ name, ignore, fn, sanitizeResources: false, sanitizeOps: false });

const chunk = (docId: string, text: string) => ({
  id: `${docId}#0`,
  text,
  vector: [1, 0, 0, 1],
  metadata: { doc_id: docId, chunk_index: 0, port: "Kiel" },
});

/** The whole app on the Postgres index at `url`, and a way to close its pool. */
function postgresApp(env: Record<string, string>) {
  const pool = postgresPool();
  const { post } = testApp(env, createSiftApp({ runtime: new Runtime({ postgres: pool }) }));
  const close = async () => await (pool(readConfig(env), env) as PostgresIndex).close();
  return { post, close };
}

async function searchIds(post: ReturnType<typeof postgresApp>["post"], namespace: string) {
  const response = await post("/v1/search", { query: "harbour dawn", mode: "hybrid", namespace });
  const body = await response.json() as { results: { doc_id: string }[] };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.results.map((hit) => hit.doc_id);
}

test(
  "a write held past lock_timeout on one namespace is a 503 naming the index; searches on another answer 200 during and after (native)",
  native.ignore,
  async () => {
    await using db = await native.start();
    // lock_timeout is half of it: 1,000 ms.
    const { post, close } = postgresApp({
      DEMO_CORPUS: "false",
      DATABASE_URL: db.url,
      DATABASE_TIMEOUT_MS: "2000",
    });
    const admin = postgres(db.url, { max: 2, onnotice: () => {} });
    try {
      for (const namespace of ["alpha", "bravo"]) {
        const made = await post("/v1/documents", {
          namespace,
          documents: [{ id: `${namespace}-log`, text: "The harbour opens at dawn." }],
        });
        assert.equal(made.status, 201, await made.text());
      }
      // Another session holds alpha's namespace row, as a long write of alpha would.
      let locked!: () => void;
      let release!: () => void;
      const holding = admin.begin(async (tx) => {
        await tx`SELECT 1 FROM sift_namespaces WHERE tenant = '' AND namespace = 'alpha' FOR UPDATE`;
        locked();
        await new Promise<void>((resolve) => release = resolve);
      });
      await new Promise<void>((resolve) => locked = resolve);

      // The 503 is logged on purpose: not here.
      const { refused, during } = await withoutErrorLogs(async () => {
        let settled = false;
        const write = Promise.resolve(post("/v1/documents", {
          namespace: "alpha",
          documents: [{ id: "alpha-new", text: "The lock keeper's harbour notes at dawn." }],
        })).finally(() => settled = true);
        let during = 0;
        while (!settled) {
          assert.deepEqual(await searchIds(post, "bravo"), ["bravo-log"]);
          if (!settled) during++;
        }
        return { refused: await write, during };
      });
      const body = await refused.json();
      assert.equal(refused.status, 503, JSON.stringify(body));
      assert.match(
        errorMessageOf(body),
        /^The index \(Postgres\) took over 1000 ms waiting for a lock \(lock_timeout\)/,
      );
      assert.ok(during >= 1, "no search on bravo was answered while alpha's write waited");
      // The server gave up the statement itself: no sift session is left waiting on the lock.
      const [waiting] = await admin<{ count: number }[]>`SELECT count(*)::int AS count
        FROM pg_stat_activity WHERE application_name = 'sift' AND wait_event_type = 'Lock'`;
      assert.equal(waiting?.count, 0);

      release();
      await holding;
      // The same pool serves on: bravo is found, and alpha's write goes through now.
      assert.deepEqual(await searchIds(post, "bravo"), ["bravo-log"]);
      const again = await post("/v1/documents", {
        namespace: "alpha",
        documents: [{ id: "alpha-new", text: "The lock keeper's harbour notes at dawn." }],
      });
      assert.equal(again.status, 201, await again.text());
      assert.deepEqual((await searchIds(post, "alpha")).sort(), ["alpha-log", "alpha-new"]);
    } finally {
      await admin.end({ timeout: 5 });
      await close();
    }
  },
);

for (const server of postgresServers("timeouts_test")) {
  test(
    `a connection that stops answering fails only its own call; sift lets it go and serves on (${server.name})`,
    server.ignore,
    async () => {
      await using db = await server.start();
      await using proxy = faultyProxy(db.port, { stallOn: "Kittiwake-7319" });
      // The deadline is every call's, bravo's searches too: long enough that PGlite answers
      // them on a machine running two suites at once (at 1.5 s one did not, once).
      const index = new PostgresIndex({
        url: db.url.replace(`:${db.port}/`, `:${proxy.port}/`),
        timeoutMs: 4000,
      });
      const bravo = () =>
        index.query({ text: "harbour", mode: "sparse", topK: 3, namespace: "bravo" });
      try {
        await index.upsert([chunk("alpha-log", "The harbour opens at dawn.")], {
          namespace: "alpha",
        });
        await index.upsert([chunk("bravo-log", "The harbour closes at dusk.")], {
          namespace: "bravo",
        });
        const started = Date.now();
        let settled = false;
        // Its filter value is the marker: the proxy swallows it and everything after.
        const stalled = index.query({
          text: "harbour",
          mode: "sparse",
          topK: 3,
          namespace: "alpha",
          filter: { port: "Kittiwake-7319" },
        }).then(() => undefined, (error: unknown) => error).finally(() => settled = true);
        let during = 0;
        while (!settled) {
          assert.deepEqual((await bravo()).map((hit) => hit.doc_id), ["bravo-log"]);
          if (!settled) during++;
        }
        const error = await stalled;
        assert.ok(error instanceof IndexTimeoutError, String(error));
        assert.equal(error.status, 503);
        assert.ok(error.isRetryable);
        assert.match(error.message, /^The index \(Postgres\) took over 4000 ms to answer/);
        assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms`);
        assert.ok(during >= 1, "no search on bravo was answered while alpha's hung");
        // A statement later, sift closes the hung connection (its pool retired: new calls get a
        // new one, calls in flight on the others finish).
        const closed = await Promise.race([
          proxy.stalledClosed.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000)),
        ]);
        assert.ok(closed, "the hung connection was never let go");
        assert.deepEqual((await bravo()).map((hit) => hit.doc_id), ["bravo-log"]);
      } finally {
        await index.close();
      }
    },
  );
}

test(
  "a pooler that refuses statement_timeout at connect (PgBouncer) is served without it (PGlite)",
  false,
  async () => {
    await using db = await startPgliteServer();
    await using proxy = faultyProxy(db.port, { refuseStartupParameter: "statement_timeout" });
    const index = new PostgresIndex({
      url: db.url.replace(`:${db.port}/`, `:${proxy.port}/`),
      timeoutMs: 10_000,
    });
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args.join(" "));
    try {
      await index.upsert([chunk("alpha-log", "The harbour opens at dawn.")], {
        namespace: "alpha",
      });
      assert.equal(await index.count({ namespace: "alpha" }), 1);
      assert.ok(proxy.refused() >= 1, "the proxy refused nothing");
      const refusedAtFirst = proxy.refused();
      assert.equal(await index.count({ namespace: "alpha" }), 1);
      assert.equal(proxy.refused(), refusedAtFirst); // remembered: no session asks again
      assert.equal(logged.length, 1, logged.join("\n"));
      assert.match(logged[0]!, /refuses statement_timeout at connect/);
    } finally {
      console.error = original;
      await index.close();
    }
  },
);
