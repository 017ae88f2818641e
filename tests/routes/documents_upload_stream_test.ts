/**
 * `POST /v1/documents` as multipart read as it streams in: a form that stalls
 * gets the JSON body's 408, a body over a limit is refused while it is read,
 * a body whose boundary never comes is refused in one pass, and a client that
 * leaves mid-body is one log line, not a failure with a stack trace.
 */
import assert from "node:assert/strict";
import { uploadApp } from "../helpers/documents.ts";
import { RawConnection } from "../helpers/raw_http.ts";
import { markFramedBody } from "../../shared/http/body.ts";
import type { ErrorBody } from "./helpers.ts";

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const BOUNDARY = "sift-test-boundary";
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A part's opening: its delimiter and headers, then its content follows. */
function partHead(name: string, filename?: string): string {
  const file = filename === undefined ? "" : `; filename="${filename}"`;
  return `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"${file}\r\n\r\n`;
}

/** A streamed upload of `pieces`, pulled one at a time; `stall` then waits forever. */
function streamedUpload(pieces: Uint8Array[], options: { stall?: boolean } = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[pulled];
      if (piece === undefined) {
        if (options.stall) return new Promise(() => {});
        return controller.close();
      }
      pulled++;
      controller.enqueue(piece);
    },
  }, { highWaterMark: 0 });
  const init = {
    method: "POST",
    headers: { "content-type": CONTENT_TYPE },
    body,
    duplex: "half",
  } as RequestInit;
  return { init, pulled: () => pulled };
}

/** `bytes` in pieces of `size`. */
function piecesOf(bytes: Uint8Array, size = 64 * 1024): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    pieces.push(bytes.subarray(offset, offset + size));
  }
  return pieces;
}

/** `promise`, or a failure after `ms`: a read that never ends fails the test instead of hanging it. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not answered within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a multipart upload that stalls mid-body gets 408 once BODY_READ_TIMEOUT_MS passes, and nothing is stored", async () => {
  const { app, env, count } = uploadApp({ DEMO_CORPUS: "false", BODY_READ_TIMEOUT_MS: "200" });
  const { init } = streamedUpload([
    encoder.encode(partHead("namespace") + "default\r\n" + partHead("file", "a.txt") + "half a"),
  ], { stall: true });
  const reply = await within(Promise.resolve(app.request("/v1/documents", init, env)), 20_000);
  assert.equal(reply.status, 408);
  assert.equal(reply.headers.get("connection"), "close");
  const body: ErrorBody = await reply.json();
  assert.equal(body.error.type, "timeout");
  assert.match(body.error.message, /did not arrive within 0.2 s/);
  assert.equal(await count(), 0);
});

Deno.test({
  name: "a multipart upload that stalls mid-body on a real server gets its 408 on the wire",
  sanitizeResources: false,
  async fn() {
    const { app, env } = uploadApp({ DEMO_CORPUS: "false", BODY_READ_TIMEOUT_MS: "300" });
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) => app.fetch(request, env),
    );
    using connection = await RawConnection.open(server.addr.port);
    await connection.send(
      `POST /v1/documents HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${CONTENT_TYPE}\r\n` +
        `content-length: 100000\r\n\r\n${partHead("file", "a.txt")}the first bytes`,
    );
    const answer = await connection.response(30_000);
    assert.equal(answer.status, 408);
    assert.equal(JSON.parse(answer.body).error.type, "timeout");
  },
});

Deno.test("a streamed upload over the body limit gets 413 while it is read, the rest never pulled", async () => {
  // The body limit is max(16 MiB, FILE_MAX_BYTES) + 1 MiB: two 9 MiB files pass it, neither alone.
  const { app, env, count } = uploadApp();
  const file = new Uint8Array(9 * MiB).fill(0x61);
  const pieces = [
    encoder.encode(partHead("file", "one.txt")),
    ...piecesOf(file),
    encoder.encode("\r\n" + partHead("file", "two.txt")),
    ...piecesOf(file),
    encoder.encode("\r\n" + partHead("file", "three.txt")),
    ...piecesOf(file),
    encoder.encode(`\r\n--${BOUNDARY}--\r\n`),
  ];
  const { init, pulled } = streamedUpload(pieces);
  const reply = await app.request("/v1/documents", init, env);
  assert.equal(reply.status, 413);
  const body: ErrorBody = await reply.json();
  assert.equal(body.error.type, "payload_too_large");
  assert.match(body.error.message, /exceeds the 17 MiB limit/);
  assert.ok(pulled() < (pieces.length * 2) / 3, `pulled ${pulled()} of ${pieces.length} pieces`);
  assert.equal(await count(), 0);
});

Deno.test("a streamed file over FILE_MAX_BYTES gets that file's refusal as soon as it passes the limit", async () => {
  const { app, env, count } = uploadApp({ DEMO_CORPUS: "false", FILE_MAX_BYTES: "100000" });
  const pieces = [
    encoder.encode(partHead("namespace") + "default\r\n" + partHead("file", "small.md")),
    encoder.encode("# Small\r\n\r\nA note.\r\n" + partHead("file", "dir/big.pdf")),
    ...piecesOf(new Uint8Array(4 * MiB).fill(0x62), 16 * 1024),
    encoder.encode(`\r\n--${BOUNDARY}--\r\n`),
  ];
  const { init, pulled } = streamedUpload(pieces);
  const reply = await app.request("/v1/documents", init, env);
  assert.equal(reply.status, 413);
  const body: ErrorBody = await reply.json();
  assert.match(
    body.error.message,
    /^big\.pdf: is over the limit of 100000 bytes \(FILE_MAX_BYTES\)/,
  );
  assert.ok(pulled() < 20, `pulled ${pulled()} of ${pieces.length} pieces`);
  assert.equal(await count(), 0);
});

Deno.test("16 MB whose boundary never comes is refused in one pass: none at all, none after the first part, a file never closed", async () => {
  const filler = new Uint8Array(16 * MiB).fill(0x78);
  const cases = [
    { what: "no boundary at all", head: "", status: 400, why: /not a multipart\/form-data body/ },
    {
      what: "none after the first part",
      head: partHead("namespace") + `default\r\n--${BOUNDARY}`,
      status: 400,
      why: /headers are too long/,
    },
    {
      what: "a file never closed",
      head: partHead("file", "endless.txt"),
      status: 400,
      why: /ended before its closing boundary/,
    },
  ];
  for (const { what, head, status, why } of cases) {
    // FILE_MAX_BYTES over 16 MiB: the file is read to its end, not refused at a limit.
    const { app, env, count } = uploadApp({ DEMO_CORPUS: "false", FILE_MAX_BYTES: `${20 * MiB}` });
    const { init } = streamedUpload([encoder.encode(head), ...piecesOf(filler)]);
    // Generous for a busy machine: the old parser's rescans took seconds; a hang fails here.
    const reply = await within(Promise.resolve(app.request("/v1/documents", init, env)), 60_000);
    assert.equal(reply.status, status, what);
    assert.match((await reply.json() as ErrorBody).error.message, why, what);
    assert.equal(await count(), 0);
  }
});

Deno.test("an upload's filename* (UTF-8) names its document and source; an unknown field is a 400", async () => {
  const { app, env } = uploadApp();
  const text = "A note about the ferry timetable, sent with an RFC 5987 filename.";
  const { init } = streamedUpload([
    encoder.encode(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="fallback.txt"; ` +
        `filename*=UTF-8''Fähre%20notes.txt\r\ncontent-type: text/plain\r\n\r\n${text}\r\n` +
        `--${BOUNDARY}--\r\n`,
    ),
  ]);
  const reply = await app.request("/v1/documents", init, env);
  assert.equal(reply.status, 201, await reply.clone().text());
  const stored = await reply.json() as { documents: { id: string }[] };
  assert.deepEqual(stored.documents.map((document) => document.id), ["F-hre-notes"]);
  const unknown = streamedUpload([
    encoder.encode(partHead("file", "a.txt") + "text\r\n" + partHead("nmespace") + "x\r\n"),
    encoder.encode(`--${BOUNDARY}--\r\n`),
  ]);
  const refused = await app.request("/v1/documents", unknown.init, env);
  assert.equal(refused.status, 400);
  assert.match((await refused.json() as ErrorBody).error.message, /unknown form field "nmespace"/);
});

Deno.test({
  name: "a client that leaves mid-body is logged as one line, not as a failure with a stack trace",
  sanitizeResources: false,
  async fn() {
    const { app, env } = uploadApp();
    const lines: string[] = [];
    const failures: unknown[][] = [];
    const { warn, error } = console;
    console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    console.error = (...args: unknown[]) => void failures.push(args);
    const uploads = [
      { path: "/v1/documents", type: CONTENT_TYPE, body: partHead("file", "a.pdf") + "%PDF-1." },
      { path: "/v1/search", type: "application/json", body: '{"query": "half a' },
    ];
    try {
      // Read as a stream, and (as main.ts's handler marks every request) whole at once.
      for (const framed of [false, true]) {
        await using server = Deno.serve(
          { hostname: "127.0.0.1", port: 0, onListen() {} },
          (request) => app.fetch(framed ? markFramedBody(request) : request, env),
        );
        for (const upload of uploads) {
          const before = lines.length;
          const connection = await RawConnection.open(server.addr.port);
          await connection.send(
            `POST ${upload.path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${upload.type}\r\n` +
              `content-length: 100000\r\n\r\n${upload.body}`,
          );
          await new Promise((resolve) => setTimeout(resolve, 100));
          connection.close();
          for (let waited = 0; lines.length === before && waited < 10_000; waited += 20) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more comes
          assert.deepEqual(lines.slice(before), [
            `POST ${upload.path}: the client went away while sending its body`,
          ], `framed: ${framed}`);
        }
      }
    } finally {
      console.warn = warn;
      console.error = error;
    }
    assert.deepEqual(failures, []);
  },
});
