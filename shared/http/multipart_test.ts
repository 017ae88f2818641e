import assert from "node:assert/strict";
import { InvalidRequestError, PayloadTooLargeError, RequestTimeoutError } from "../errors.ts";
import { ClientGoneError } from "./client-gone.ts";
import { multipartBoundary, readMultipart } from "./multipart.ts";

const LIMITS = {
  maxFileBytes: 1000,
  maxFiles: 3,
  maxTotalBytes: 100_000,
  fileTooLarge: (filename: string) => new PayloadTooLargeError(`${filename}: too large`),
};

/** A request whose body is `form`, streamed in `chunkBytes` pieces, counting the pieces pulled. */
async function streamed(form: FormData, chunkBytes: number) {
  const encoded = new Request("http://x/", { method: "POST", body: form });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const contentType = encoded.headers.get("content-type")!;
  let pulled = 0;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      pulled++;
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  }, { highWaterMark: 0 });
  const request = new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-type": contentType },
    duplex: "half",
  } as RequestInit);
  return {
    request,
    boundary: multipartBoundary(contentType)!,
    pulled: () => pulled,
    pieces: Math.ceil(bytes.length / chunkBytes),
  };
}

Deno.test("readMultipart() returns fields and files, bytes exact, even when a delimiter straddles reads", async () => {
  const form = new FormData();
  form.append("namespace", "papers");
  const binary = Uint8Array.from({ length: 600 }, (_, index) => (index * 7) % 256);
  form.append("file", new Blob([binary]), "dir/a.bin");
  form.append("file", new Blob(["second\r\n--not-a-boundary"]), "b.txt");
  for (const chunkBytes of [1, 7, 64, 100_000]) {
    const { request, boundary } = await streamed(form, chunkBytes);
    const parts = await readMultipart(request, boundary, LIMITS);
    assert.deepEqual(parts[0], { kind: "field", name: "namespace", value: "papers" });
    assert.equal(parts[1]?.kind === "file" && parts[1].filename, "a.bin");
    assert.deepEqual(parts[1]?.kind === "file" && [...parts[1].bytes], [...binary]);
    assert.equal(
      parts[2]?.kind === "file" && new TextDecoder().decode(parts[2].bytes),
      "second\r\n--not-a-boundary",
    );
  }
});

Deno.test("readMultipart() refuses a file over its limit before the rest of the body is read", async () => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(50_000)]), "big.pdf");
  const { request, boundary, pulled, pieces } = await streamed(form, 500);
  await assert.rejects(readMultipart(request, boundary, LIMITS), /big\.pdf: too large/);
  assert.ok(pulled() < pieces / 10, `read ${pulled()} of ${pieces} pieces`);
});

Deno.test("readMultipart() refuses a body over its total, too many files, and a body cut short", async () => {
  const many = new FormData();
  for (let index = 0; index < 4; index++) many.append("file", new Blob(["x"]), `${index}.txt`);
  const tooMany = await streamed(many, 100);
  await assert.rejects(readMultipart(tooMany.request, tooMany.boundary, LIMITS), /at most 3 files/);
  const big = new FormData();
  for (let index = 0; index < 3; index++) big.append("file", new Blob([new Uint8Array(900)]), "f");
  const total = await streamed(big, 100);
  await assert.rejects(
    readMultipart(total.request, total.boundary, { ...LIMITS, maxTotalBytes: 2000 }),
    PayloadTooLargeError,
  );
  const cut = new Request("http://x/", {
    method: "POST",
    body: '--b\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf',
  });
  await assert.rejects(readMultipart(cut, "b", LIMITS), InvalidRequestError);
});

Deno.test("multipartBoundary() reads the boundary of multipart/form-data only", () => {
  assert.equal(multipartBoundary('multipart/form-data; boundary="abc"'), "abc");
  assert.equal(multipartBoundary("Multipart/Form-Data; charset=utf-8; boundary=x-1"), "x-1");
  assert.equal(multipartBoundary("application/json"), undefined);
  assert.throws(() => multipartBoundary("multipart/form-data"), /boundary/);
});

/** A request whose body is `bytes`, in `chunkBytes` pieces, with the form's content type. */
function rawRequest(bytes: Uint8Array, boundary: string, chunkBytes: number) {
  let offset = 0;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      pulled++;
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  }, { highWaterMark: 0 });
  const request = new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

Deno.test("readMultipart() names the file over its limit wherever it falls: after fields and files, in any chunking", async () => {
  const form = new FormData();
  form.append("namespace", "papers");
  form.append("file", new Blob(["small"]), "first.txt");
  form.append("id", "x");
  form.append("file", new Blob([new Uint8Array(5000)]), "C:\\docs\\second.pdf");
  form.append("file", new Blob(["after"]), "third.txt");
  for (const chunkBytes of [1, 3, 50, 333, 4096, 100_000]) {
    const { request, boundary } = await streamed(form, chunkBytes);
    await assert.rejects(
      readMultipart(request, boundary, LIMITS),
      (error: Error) => error.message === "second.pdf: too large",
      `${chunkBytes}-byte reads`,
    );
  }
});

Deno.test("readMultipart() names a field over its limit, and takes filename* (UTF-8) over filename", async () => {
  const boundary = "b0undary";
  const body = (extra: string) =>
    new TextEncoder().encode(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="plain.txt"; ` +
        `filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt\r\n\r\nbytes\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="namespace"\r\n\r\n${extra}\r\n` +
        `--${boundary}--\r\n`,
    );
  const parts = await readMultipart(rawRequest(body("papers"), boundary, 5).request, boundary, {
    ...LIMITS,
    maxFileBytes: 100_000,
  });
  assert.deepEqual(parts.map((part) => part.kind === "file" ? part.filename : part.value), [
    'résumé "v2".txt',
    "papers",
  ]);
  const long = rawRequest(body("n".repeat(70_000)), boundary, 1000);
  await assert.rejects(
    readMultipart(long.request, boundary, { ...LIMITS, maxFileBytes: 1_000_000 }),
    /^InvalidRequestError: namespace: must be at most 65536 bytes$/,
  );
});

Deno.test("readMultipart() refuses a chunked body over its total while reading, and a declared one before", async () => {
  const form = new FormData();
  for (let index = 0; index < 3; index++) {
    form.append("file", new Blob([new Uint8Array(900)]), `${index}.bin`);
  }
  const { request, boundary, pulled, pieces } = await streamed(form, 100);
  await assert.rejects(
    readMultipart(request, boundary, { ...LIMITS, maxTotalBytes: 1500 }),
    /exceeds the 1.46484375 KiB limit/,
  );
  assert.ok(pulled() < pieces, `read ${pulled()} of ${pieces} pieces`);
  const declared = new Request("http://x/", {
    method: "POST",
    body: "--b--",
    headers: { "content-length": "100001" },
  });
  await assert.rejects(readMultipart(declared, "b", LIMITS), PayloadTooLargeError);
});

Deno.test("readMultipart() gives a body that stalls mid-form a 408 once timeoutMs passes", async () => {
  let pulls = 0;
  const stalled = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(
          new TextEncoder().encode(
            '--b\r\ncontent-disposition: form-data; name="namespace"\r\n\r\npa',
          ),
        );
      }
      return new Promise(() => {}); // then nothing: a client that stopped sending
    },
  });
  const request = new Request("http://x/", {
    method: "POST",
    body: stalled,
    duplex: "half",
  } as RequestInit);
  await assert.rejects(
    readMultipart(request, "b", { ...LIMITS, timeoutMs: 100 }),
    (error: Error) =>
      error instanceof RequestTimeoutError && /did not arrive within 0.1 s/.test(error.message),
  );
});

Deno.test("readMultipart() refuses 16 MB with no boundary, or none after the first part, in one pass", async () => {
  const MiB = 1024 * 1024;
  const filler = new Uint8Array(16 * MiB).fill(0x78);
  const opening = new TextEncoder().encode(
    '--b\r\ncontent-disposition: form-data; name="namespace"\r\n\r\npapers\r\n--b',
  );
  const afterFirst = new Uint8Array(opening.length + filler.length);
  afterFirst.set(opening);
  afterFirst.set(filler, opening.length);
  const limits = { ...LIMITS, maxFileBytes: 32 * MiB, maxTotalBytes: 32 * MiB };
  const cases = [
    { body: filler, refusal: /not a multipart\/form-data body/ },
    { body: afterFirst, refusal: /headers are too long/ },
  ];
  for (const { body, refusal } of cases) {
    const { request } = rawRequest(body, "b", 64 * 1024);
    // Generous for a busy machine (a linear read takes well under a second); a hang fails here.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("not refused within 60 s")), 60_000);
    });
    try {
      await assert.rejects(Promise.race([readMultipart(request, "b", limits), hung]), refusal);
    } finally {
      clearTimeout(timer);
    }
  }
});

Deno.test("readMultipart() reports a body whose read fails mid-form as the client gone", async () => {
  let pulls = 0;
  const cut = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ > 0) return controller.error(new Error("Network connection lost."));
      controller.enqueue(
        new TextEncoder().encode('--b\r\ncontent-disposition: form-data; name="x"'),
      );
    },
  });
  const request = new Request(
    "http://x/",
    { method: "POST", body: cut, duplex: "half" } as RequestInit,
  );
  await assert.rejects(readMultipart(request, "b", LIMITS), ClientGoneError);
});
