import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { detectFileKind } from "./detect.ts";
import { gzipInnerName } from "./gzip.ts";
import { parseKind } from "./parse-kind.ts";

const MiB = 1024 * 1024;
const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 8 * MiB,
  parseTimeoutMs: 60_000,
};
const text = (value: string) => new TextEncoder().encode(value);

/** `chunks` gzipped by the runtime, one at a time (a bomb is never whole in memory). */
async function gzip(chunks: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream("gzip");
  const writer = stream.writable.getWriter();
  const zipped = new Response(stream.readable).bytes();
  for (const chunk of chunks) await writer.write(chunk as Uint8Array<ArrayBuffer>);
  await writer.close();
  return await zipped;
}

/** A gzip file read as `detectFileKind` then `parseKind` read an upload. */
async function parseUpload(bytes: Uint8Array, name: string) {
  return await parseKind(detectFileKind(bytes, name), bytes, name, LIMITS);
}

function refusedAs(status: number, why: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof DocumentRefusedError, String(error));
    assert.equal(error.status, status);
    assert.match(error.message, why);
    return true;
  };
}

Deno.test("gzipInnerName() drops .gz: README.md.gz is README.md, changelog.gz is changelog", () => {
  assert.equal(gzipInnerName("README.md.gz"), "README.md");
  assert.equal(gzipInnerName("changelog.GZ"), "changelog");
  assert.equal(gzipInnerName("notes"), "notes");
});

Deno.test("a gzipped Markdown file is read as Markdown, by the name inside", async () => {
  const parsed = await parseUpload(
    await gzip([text("# Tides\n\n## Slack water\n\nThe turn of the tide.\n")]),
    "README.md.gz",
  );
  assert.equal(parsed.kind, "markdown");
  assert.equal(parsed.title, "Tides");
  const paragraph = parsed.blocks.find((block) => block.kind === "paragraph");
  assert.deepEqual(paragraph?.section, ["Tides", "Slack water"]);
});

Deno.test("changelog.gz with plain text inside is read as text", async () => {
  const parsed = await parseUpload(
    await gzip([text("v2: flamingos\n\nv1: first\n")]),
    "changelog.gz",
  );
  assert.equal(parsed.kind, "text");
  assert.deepEqual(parsed.blocks.map((block) => block.text), ["v2: flamingos", "v1: first"]);
});

Deno.test("a gzip of JSON Lines, of a gzip, of an image or cut short is refused naming the file sent", async () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  const zipped = await gzip([text("line one\nline two\n".repeat(200))]);
  const cases: [string, Uint8Array, number, RegExp][] = [
    ["corpus.jsonl.gz", await gzip([text('{"text":"a"}\n')]), 415, /is JSON Lines: send its lines/],
    ["twice.txt.gz.gz", await gzip([zipped]), 415, /gzip inside a gzip/],
    ["photo.txt.gz", await gzip([png]), 415, /is a gzip of photo\.txt, which is a PNG image/],
    ["cut.txt.gz", zipped.slice(0, zipped.length / 2), 400, /damaged or truncated gzip/],
  ];
  for (const [name, bytes, status, why] of cases) {
    await assert.rejects(
      parseUpload(bytes, name),
      refusedAs(status, new RegExp(`^${name.replaceAll(".", "\\.")}: .*${why.source}`)),
    );
  }
});

Deno.test("a gzip of 200 MB of zeros is refused 413 at ARCHIVE_MAX_EXPANDED_BYTES, quickly", async () => {
  const zeros = new Uint8Array(MiB);
  const bomb = await gzip(Array.from({ length: 200 }, () => zeros));
  assert.ok(bomb.byteLength < MiB, `${bomb.byteLength} bytes`);
  const started = performance.now();
  await assert.rejects(
    parseUpload(bomb, "zeros.txt.gz"),
    refusedAs(413, /^zeros\.txt\.gz: expands past 8388608 bytes \(ARCHIVE_MAX_EXPANDED_BYTES\)/),
  );
  const took = performance.now() - started;
  assert.ok(took < 5_000, `took ${took.toFixed(0)} ms`);
});
