import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { detectFileKind } from "./detect.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("detectFileKind() goes by the bytes: a PDF or HTML under any name, text by name", () => {
  assert.equal(detectFileKind(bytes("%PDF-1.7\n..."), "paper.txt"), "pdf");
  assert.equal(detectFileKind(bytes("\n\n%PDF-1.4"), "x"), "pdf");
  assert.equal(detectFileKind(bytes("<!DOCTYPE html><title>t</title>"), "page.txt"), "html");
  assert.equal(detectFileKind(bytes("<!-- saved --> <html lang=en>"), "page"), "html");
  assert.equal(detectFileKind(bytes("<p>hi</p>"), "page.htm"), "html");
  assert.equal(detectFileKind(bytes("<p>hi</p>"), "notes.txt"), "text");
  assert.equal(detectFileKind(bytes("# Title\n\ntext"), "notes.md"), "markdown");
  assert.equal(detectFileKind(bytes('{"text":"a"}'), "corpus.jsonl"), "jsonl");
  assert.equal(detectFileKind(bytes("héllo wörld"), "notes"), "text");
});

Deno.test("detectFileKind() takes gzip's magic bytes as a gzip, whatever the name or what follows", () => {
  assert.equal(detectFileKind(Uint8Array.from([0x1f, 0x8b, 8, 0]), "a.txt"), "gzip");
  // A stored (level 0) gzip of a PDF shows `%PDF-` in its first bytes: still the gzip.
  assert.equal(
    detectFileKind(Uint8Array.from([0x1f, 0x8b, 8, 0, ...bytes("%PDF-1.7")]), "x"),
    "gzip",
  );
});

Deno.test("detectFileKind() refuses images and other binary whatever their names, and empty files", () => {
  const cases: [Uint8Array, string, RegExp][] = [
    [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), "a.txt", /PNG image/],
    [Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), "a.md", /JPEG image/],
    [bytes("GIF89a\x01\x00"), "a.html", /GIF image/],
    [bytes("RIFF\x10\x00\x00\x00WEBPVP8 "), "a.txt", /WebP image/],
    [Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]), "a.docx", /zip archive that is not a Word/],
    [Uint8Array.from([0x61, 0x00, 0x62]), "a.txt", /binary data/],
    [Uint8Array.from([0xc3, 0x28, 0x41]), "a.txt", /binary data/],
    [new Uint8Array(), "empty.txt", /is empty/],
    [bytes("  \n\t "), "blank.txt", /holds no text/],
  ];
  for (const [input, name, why] of cases) {
    assert.throws(() => detectFileKind(input, name), (error: unknown) => {
      assert.ok(error instanceof DocumentRefusedError);
      assert.match(error.message, new RegExp(`^${name.replace(".", "\\.")}: `));
      assert.match(error.message, why);
      return true;
    });
  }
});

Deno.test("detectFileKind() takes a zip holding word/document.xml as a DOCX", () => {
  const zip = new Uint8Array([0x50, 0x4b, 3, 4, ...bytes("....word/document.xml....")]);
  assert.equal(detectFileKind(zip, "letter.bin"), "docx");
});

Deno.test("detectFileKind() takes a BMP by its header, not by a text's first letters 'BM'", () => {
  assert.equal(
    detectFileKind(
      bytes("BM25 ranks documents by term frequency and inverse document frequency."),
      "n.txt",
    ),
    "text",
  );
  // A real BITMAPINFOHEADER file's first 26 bytes: "BM", size, reserved zeros, offset, 40.
  const bmp = Uint8Array.from([
    0x42,
    0x4d,
    0x46,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0x36,
    0,
    0,
    0,
    40,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    1,
    0,
    24,
    0,
  ]);
  assert.throws(
    () => detectFileKind(bmp, "a.txt"),
    (error: unknown) => error instanceof DocumentRefusedError && /BMP image/.test(error.message),
  );
});
