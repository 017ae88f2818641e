import assert from "node:assert/strict";
import { InvalidRequestError, PayloadTooLargeError } from "../errors.ts";
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
