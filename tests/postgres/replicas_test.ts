/**
 * Past one machine, checked from outside (#31's Done-when): `deno task start`
 * replicas with their own empty data directories share one `DATABASE_URL`,
 * on each of servers.ts's servers: pglite-server with pgvector, and a native
 * Postgres as a role that is not a superuser. A write through one is found through
 * the other on every mode; a second tenant finds nothing of the first's;
 * every document acknowledged before a kill -9 of the writing replica is read
 * back through the other; the database going away is a 503 naming the index,
 * and work resumes on its own when it returns; connections dropped in the
 * middle of an ingest's transaction are a 503 and the replica serves on; a
 * database without pgvector stops the start with one line.
 */
import assert from "node:assert/strict";
import { freePort, type RunningService, SERVE_PERMISSIONS, startService } from "../e2e/service.ts";
import { cuttingProxy } from "./cutting-proxy.ts";
import { once, type PostgresServer, postgresServers } from "./servers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The replicas' data directories, removed at the end. */
const dataDirs: string[] = [];

async function replica(
  url: string,
  extra: Record<string, string> = {},
): Promise<RunningService & { dataDir: string }> {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-replica-" });
  dataDirs.push(dataDir);
  const env = {
    SIFT_DATA_DIR: dataDir,
    DATABASE_URL: url,
    API_KEYS: "ka:acme,kb:globex",
    DATABASE_TIMEOUT_MS: "20000",
    ...extra,
  };
  return { ...await startService(env), dataDir: env.SIFT_DATA_DIR };
}

function call(sift: RunningService, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${sift.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
}

async function search(sift: RunningService, key: string, query: string, mode: string) {
  const response = await call(sift, key, "POST", "/v1/search", { query, mode, top_k: 5 });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return (body as { results: { doc_id: string }[] }).results.map((hit) => hit.doc_id);
}

for (const server of postgresServers("replicas_test")) {
  const started = once(() => server.start());
  const test = (name: string, fn: (db: PostgresServer) => Promise<void>) =>
    Deno.test({
      name: `${name} (${server.name})`,
      ignore: server.ignore,
      fn: async () => await fn(await started()),
      sanitizeResources: false,
      sanitizeOps: false,
    });

  test("two replicas on one DATABASE_URL: a write through one is found through the other, per tenant", async (db) => {
    await using writer = await replica(db.url);
    await using reader = await replica(db.url);
    const ingested = await call(writer, "ka", "POST", "/v1/documents", {
      documents: [
        {
          id: "ledger",
          title: "Lighthouse ledger",
          text: "Acme's lighthouse ledger: the confidential figures.",
        },
        { id: "harbour", title: "Harbour log", text: "Ships that came into the harbour at dawn." },
      ],
    });
    assert.equal(ingested.status, 201, await ingested.text());
    for (const mode of ["dense", "sparse", "hybrid"]) {
      assert.equal(
        (await search(reader, "ka", "lighthouse ledger figures", mode))[0],
        "ledger",
        mode,
      );
      assert.deepEqual(await search(reader, "kb", "lighthouse ledger figures", mode), [], mode);
    }
    const listed = await call(reader, "ka", "GET", "/v1/documents");
    const ids = ((await listed.json()) as { data: { id: string }[] }).data.map((doc) => doc.id);
    assert.deepEqual(ids, ["harbour", "ledger"]);
    const other = await call(reader, "kb", "GET", "/v1/documents/ledger");
    await other.body?.cancel();
    assert.equal(other.status, 404);

    const health = await (await fetch(`${reader.url}/healthz`)).json() as {
      providers: { index: string };
      checks: { index: string };
    };
    assert.equal(health.providers.index, "postgres");
    assert.equal(health.checks.index, "ok");

    // No data-directory lock applies to an index in Postgres: a third replica on the writer's
    // own directory starts and serves.
    await using third = await replica(db.url, { SIFT_DATA_DIR: writer.dataDir });
    assert.equal((await search(third, "ka", "harbour ships dawn", "sparse"))[0], "harbour");
  });

  test("every document acknowledged before a kill -9 of the writer is read back through the other", async (db) => {
    const writer = await replica(db.url);
    await using reader = await replica(db.url);
    const acknowledged: string[] = [];
    let stop = false;
    const writing = (async () => {
      for (let i = 0; !stop; i++) {
        const id = `crash-${i}`;
        try {
          const response = await call(writer, "ka", "POST", "/v1/documents", {
            documents: [{ id, text: `Entry ${i} of the crash ledger, written before the kill.` }],
          });
          await response.body?.cancel();
          if (response.status === 201) acknowledged.push(id);
        } catch {
          return; // the writer is gone mid-request: not acknowledged
        }
      }
    })();
    const deadline = Date.now() + 120_000;
    while (acknowledged.length < 5 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await writer.crash();
    stop = true;
    await writing;
    assert.ok(acknowledged.length >= 5, `only ${acknowledged.length} writes were acknowledged`);
    for (const id of acknowledged) {
      const response = await call(reader, "ka", "GET", `/v1/documents/${id}`);
      const body = await response.text();
      assert.equal(response.status, 200, `${id}: ${body}`);
    }
  });

  // Where this kill lands (before the ingest's transaction, in it, after it) depends on the
  // machine's speed; the next test cuts the connections inside the transaction every time.
  test("the database going away is a 503 naming the index; work resumes when it returns", async (db) => {
    await using sift = await replica(db.url, { DATABASE_TIMEOUT_MS: "5000" });
    const ingested = await call(sift, "ka", "POST", "/v1/documents", {
      documents: [{ id: "beacon", text: "The beacon is lit at the harbour mouth." }],
    });
    assert.equal(ingested.status, 201, await ingested.text());
    // Killed while a large ingest is in flight: that request ends (503, or 201 if it beat the
    // kill), never a 500 or a hang.
    const inFlight = call(sift, "ka", "POST", "/v1/documents", {
      documents: Array.from({ length: 100 }, (_, i) => ({
        id: `flight-${i}`,
        text: `Ledger entry ${i}: cargo, tide tables and the harbour master notes. `.repeat(20),
      })),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.kill();
    const flight = await inFlight;
    const flightBody = await flight.text();
    assert.ok([201, 503].includes(flight.status), `${flight.status}: ${flightBody}`);
    const down = await call(sift, "ka", "POST", "/v1/search", { query: "beacon", mode: "sparse" })
      .catch(async (error) => {
        // Its last words reach the pipe after the refusal: a moment to read them.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const alive = await Deno.stat(`/proc/${sift.pid}`).then(() => "alive", () => "gone");
        throw new Error(`the replica stopped answering (process ${alive}):\n${sift.output()}`, {
          cause: error,
        });
      });
    const body = await down.json() as { error: { message: string } };
    assert.equal(down.status, 503, JSON.stringify(body));
    assert.match(body.error.message, /index \(Postgres\)/);
    // /healthz keeps a result 5 s: the one from the start may still stand.
    type Health = { checks: { index: string }; problems?: { index?: string } };
    let health: Health | undefined;
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      health = await (await fetch(`${sift.url}/healthz`)).json() as Health;
      if (health.checks.index !== "ok") break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.equal(health?.checks.index, "down");
    assert.match(health?.problems?.index ?? "", /Postgres/);

    await db.restart();
    const deadline = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < deadline) {
      const response = await call(sift, "ka", "POST", "/v1/search", {
        query: "beacon",
        mode: "sparse",
      });
      status = response.status;
      if (status === 200) {
        const { results } = await response.json() as { results: { doc_id: string }[] };
        assert.deepEqual(results.map((hit) => hit.doc_id), ["beacon"]);
        break;
      }
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(status, 200, "the replica did not recover once the database was back");
  });

  // Until 2026-11-25 this ended the replica right after its 503: postgres.js wrote begin()'s
  // ROLLBACK to the socket it had just set to null, and the TypeError was uncaught.
  test("connections dropped mid-transaction: the ingest is a 503 and the replica serves on", async (db) => {
    // The marker is in the chunk's text, so in the rows the ingest's transaction inserts.
    await using proxy = cuttingProxy(db.port, "Kittiwake-7319");
    await using sift = await replica(db.url, {
      DATABASE_URL: db.url.replace(`:${db.port}/`, `:${proxy.port}/`),
      DATABASE_TIMEOUT_MS: "5000",
    });
    const first = await call(sift, "ka", "POST", "/v1/documents", {
      documents: [{ id: "lantern", text: "The lantern hangs by the quay." }],
    });
    assert.equal(first.status, 201, await first.text());
    proxy.arm();
    const ingest = call(sift, "ka", "POST", "/v1/documents", {
      documents: [{ id: "cut", text: "Kittiwake-7319, written while the connection is cut." }],
    });
    const flight = await ingest;
    const flightBody = await flight.text();
    assert.equal(flight.status, 503, flightBody);
    await proxy.cut; // resolved already: the 503 came from the cut
    const after = await call(sift, "ka", "POST", "/v1/search", { query: "lantern", mode: "sparse" })
      .catch(async (error) => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const alive = await Deno.stat(`/proc/${sift.pid}`).then(() => "alive", () => "gone");
        throw new Error(`the replica stopped answering (process ${alive}):\n${sift.output()}`, {
          cause: error,
        });
      });
    const body = await after.json() as { results: { doc_id: string }[] };
    assert.equal(after.status, 200, JSON.stringify(body));
    assert.deepEqual(body.results.map((hit) => hit.doc_id), ["lantern"]);
  });

  test("a database without pgvector stops the start with one line", async () => {
    await using bare = await server.start({ pgvector: false });
    const dataDir = await Deno.makeTempDir({ prefix: "sift-nopgvector-" });
    dataDirs.push(dataDir);
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...SERVE_PERMISSIONS,
        "main.ts",
      ],
      cwd: ROOT,
      env: {
        DATABASE_URL: bare.url,
        SIFT_DATA_DIR: dataDir,
        PORT: String(freePort()),
      },
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const lines = new TextDecoder().decode(stderr).trim().split("\n");
    assert.equal(code, 1);
    assert.match(lines.at(-1)!, /^sift cannot start: .*pgvector/);
  });

  test("zz: stops the database", async (db) => {
    await db[Symbol.asyncDispose]();
    for (const dir of dataDirs.splice(0)) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  });
}
