import assert from "node:assert/strict";
import {
  fromPostgresClient,
  IndexTimeoutError,
  IndexUnavailableError,
  refusedStartupParameter,
  toIndexError,
} from "./errors.ts";

/** What postgres.js rejects with when the server answers an error. */
function serverError(code: string, message = "server says no"): Error {
  return Object.assign(new Error(message), { name: "PostgresError", code, severity: "ERROR" });
}

const BOUNDS = { statementMs: 30_000, lockMs: 15_000 };

Deno.test("toIndexError() makes a data exception (SQLSTATE class 22) the caller's 400, not retryable", () => {
  for (const code of ["22021", "22P05", "22P02", "22001"]) {
    const error = toIndexError(
      serverError(code, 'invalid byte sequence for encoding "UTF8": 0x00'),
    );
    assert.equal(error.status, 400, code);
    assert.equal(error.isRetryable, false, code);
    assert.match(error.message, new RegExp(`invalid data \\(SQLSTATE ${code}\\)`));
    assert.doesNotMatch(error.message, /0x00/); // the server's own words stay in `cause`
  }
});

Deno.test("toIndexError() makes a statement cancelled at its timeout a retryable 503 naming the index and the time", () => {
  const timedOut = toIndexError(
    serverError("57014", "canceling statement due to statement timeout"),
    BOUNDS,
  );
  assert.ok(timedOut instanceof IndexTimeoutError);
  assert.ok(timedOut instanceof IndexUnavailableError); // start-up goes on past it
  assert.equal(timedOut.status, 503);
  assert.equal(timedOut.isRetryable, true);
  assert.match(timedOut.message, /^The index \(Postgres\) took over 30000 ms on one statement/);

  const locked = toIndexError(
    serverError("55P03", "canceling statement due to lock timeout"),
    BOUNDS,
  );
  assert.equal(locked.status, 503);
  assert.equal(locked.isRetryable, true);
  assert.match(locked.message, /^The index \(Postgres\) took over 15000 ms waiting for a lock/);
});

Deno.test("toIndexError() keeps the other answers as they were", () => {
  assert.equal(toIndexError(serverError("40P01"), BOUNDS).isRetryable, true);
  const other = toIndexError(serverError("42P01"), BOUNDS);
  assert.equal(other.status, 502);
  assert.equal(other.isRetryable, false);
  const gone = toIndexError(Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }));
  assert.ok(gone instanceof IndexUnavailableError);
  assert.equal(toIndexError(serverError("57P01"), BOUNDS).status, 503); // shutting down
  assert.equal(toIndexError(serverError("SW001", "wrong width")).status, 400);
});

Deno.test("refusedStartupParameter() tells PgBouncer's refusal of statement_timeout", () => {
  const refusal = Object.assign(new Error("unsupported startup parameter: statement_timeout"), {
    code: "08P01",
    severity: "FATAL",
  });
  assert.ok(refusedStartupParameter(refusal));
  assert.ok(!refusedStartupParameter(serverError("08P01", "invalid message format")));
  assert.ok(!refusedStartupParameter(undefined));
});

Deno.test("fromPostgresClient() knows postgres.js's errors from sift's own", () => {
  assert.ok(fromPostgresClient(serverError("XX000")));
  const fromTimer = new TypeError("Cannot read properties of null (reading 'write')");
  fromTimer.stack = "TypeError: Cannot read properties of null (reading 'write')\n" +
    "    at nextWrite (file:///app/node_modules/.deno/postgres@3.4.9/node_modules/postgres/src/connection.js:262:22)";
  assert.ok(fromPostgresClient(fromTimer));
  const fromCache = new TypeError("x");
  fromCache.stack =
    "TypeError: x\n    at f (file:///root/.cache/deno/npm/registry.npmjs.org/postgres/3.4.9/cf/src/connection.js:1:1)";
  assert.ok(fromPostgresClient(fromCache));
  assert.ok(!fromPostgresClient(new Error("a bug in sift")));
  const lookalike = new Error("x");
  lookalike.stack = "Error: x\n    at f (file:///work/adapters/postgres/index.ts:1:1)";
  assert.ok(!fromPostgresClient(lookalike));
  assert.ok(!fromPostgresClient("a string"));
});
