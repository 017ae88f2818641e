import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { parseKind } from "./parse-kind.ts";
import { pdfExpansion } from "./pdf-expansion.ts";

const MiB = 1024 * 1024;
const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 8 * MiB,
  parseTimeoutMs: 60_000,
};
const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** `chunks` zlib-deflated (a PDF's `/FlateDecode`) by the runtime, one at a time. */
async function deflate(chunks: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const deflated = new Response(stream.readable).bytes();
  for (const chunk of chunks) await writer.write(chunk as Uint8Array<ArrayBuffer>);
  await writer.close();
  return await deflated;
}

/** `size` bytes of blanks, a MiB at a time. */
function* blanks(size: number): Generator<Uint8Array> {
  const slice = new Uint8Array(MiB).fill(0x20);
  for (let left = size; left > 0; left -= MiB) yield slice.subarray(0, Math.min(left, MiB));
}

/** A stream object: its dictionary's entries, `/Length` added, and its bytes. */
type StreamObject = { entries: string; data: Uint8Array };

/**
 * A one-page PDF in Helvetica whose page draws image 6 and shows `content`
 * (object 5), with more streams after it, byte for byte with an xref of
 * real offsets.
 */
function pdfWith(content: StreamObject, more: StreamObject[] = []): Uint8Array {
  const objects: (string | StreamObject)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R " +
    "/Resources << /Font << /F1 4 0 R >> /XObject << /Im1 6 0 R >> >> >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    content,
    ...more,
  ];
  const parts: Uint8Array[] = [latin1("%PDF-1.5\n")];
  const offsets: number[] = [];
  let size = parts[0]!.byteLength;
  const add = (part: Uint8Array) => {
    parts.push(part);
    size += part.byteLength;
  };
  objects.forEach((body, index) => {
    offsets.push(size);
    add(latin1(`${index + 1} 0 obj\n`));
    if (typeof body === "string") add(latin1(body));
    else {
      add(latin1(`<< ${body.entries} /Length ${body.data.byteLength} >>\nstream\n`));
      add(body.data);
      add(latin1("\nendstream"));
    }
    add(latin1("\nendobj\n"));
  });
  const xref = size;
  add(latin1(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
      offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("") +
      `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
  ));
  const pdf = new Uint8Array(size);
  parts.reduce((at, part) => (pdf.set(part, at), at + part.byteLength), 0);
  return pdf;
}

const PAGE_TEXT = Array.from(
  { length: 30 },
  (_, line) => `BT /F1 11 Tf 72 ${740 - line * 14} Td (Line ${line} of the tide log) Tj ET`,
).join("\n");

function refusedAs(status: number, why: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof DocumentRefusedError, String(error));
    assert.equal(error.status, status);
    assert.match(error.message, why);
    return true;
  };
}

Deno.test("a PDF of deflated text and a 27 MB deflated image reads as before: images have room of their own", async () => {
  const pixels = new Uint8Array(3000 * 3000 * 3).map((_, at) => (at >> 12) & 0xff);
  const pdf = pdfWith(
    { entries: "/Filter /FlateDecode", data: await deflate([latin1(PAGE_TEXT)]) },
    [{
      entries: "/Type /XObject /Subtype /Image /Width 3000 /Height 3000 " +
        "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
      data: await deflate([pixels]),
    }],
  );
  const parsed = await parseKind("pdf", pdf, "log.pdf", LIMITS);
  assert.equal(parsed.kind, "pdf");
  assert.match(parsed.blocks.map((block) => block.text).join("\n"), /Line 29 of the tide log/);
});

Deno.test("a PDF whose content stream inflates past ARCHIVE_MAX_EXPANDED_BYTES is refused 413 before pdf.js reads it", async () => {
  const bomb = await deflate([latin1(`${PAGE_TEXT}\n`), ...blanks(64 * MiB)]);
  assert.ok(bomb.byteLength < MiB / 8, `${bomb.byteLength} bytes`);
  const twice = await deflate([bomb]);
  const cases: [string, StreamObject][] = [
    ["one.pdf", { entries: "/Filter /FlateDecode", data: bomb }],
    // Deflated twice, as `[/FlateDecode /FlateDecode]` reads: the outer layer alone is small.
    ["twice.pdf", { entries: "/Filter [/FlateDecode /FlateDecode]", data: twice }],
    // An image by its dictionary, read as the page's content all the same: 8 × the bound.
    ["image.pdf", {
      entries: "/Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode",
      data: await deflate(blanks(80 * MiB)),
    }],
  ];
  for (const [name, content] of cases) {
    const started = performance.now();
    await assert.rejects(
      parseKind("pdf", pdfWith(content), name, LIMITS),
      refusedAs(413, /expand(s)? past \d+ bytes \(.*ARCHIVE_MAX_EXPANDED_BYTES\)/),
    );
    const took = performance.now() - started;
    assert.ok(took < 10_000, `${name} took ${took.toFixed(0)} ms`);
  }
});

Deno.test("pdfExpansion() counts every stream of a file against one bound", async () => {
  const stream = { entries: "/Filter /FlateDecode", data: await deflate(blanks(3 * MiB)) };
  const pdf = pdfWith(stream, [stream, stream]);
  assert.equal(await pdfExpansion("three.pdf", pdf, 10 * MiB), undefined);
  const refused = await pdfExpansion("three.pdf", pdf, 8 * MiB);
  assert.match(refused?.message ?? "", /^three\.pdf: expands past 8388608 bytes/);
});

Deno.test("pdfExpansion() counts a stream with junk after its data as the most its last slice holds", async () => {
  // pdf.js stops at the end of the DEFLATE data; the runtime's inflater fails on the junk
  // and loses that slice's output, so the slice is counted at DEFLATE's 1032:1.
  const data = await deflate(blanks(4 * MiB));
  const stream = { entries: "/Filter /FlateDecode", data: new Uint8Array([...data, 1, 2, 3]) };
  const pdf = pdfWith(stream, [stream, stream]);
  assert.equal((await pdfExpansion("junk.pdf", pdf, 8 * MiB))?.status, 413);
  // One such stream is within the bound: the junk itself is no reason to refuse.
  assert.equal(await pdfExpansion("junk.pdf", pdfWith(stream), 8 * MiB), undefined);
});

Deno.test("pdfExpansion() reads a stream to its /Length past an `endstream` inside its data", async () => {
  // Stored (level 0) DEFLATE keeps its input's bytes as they are, `endstream` among them.
  // A zlib header, then a stored block of the 11 bytes that follow its LEN and NLEN.
  const stored = latin1("\x78\x01\x00\x0b\x00\xf4\xff\nendstream\n");
  const bomb = (await deflate(blanks(16 * MiB))).subarray(2);
  const pdf = pdfWith({
    entries: "/Filter /FlateDecode",
    data: new Uint8Array([...stored, ...bomb]),
  });
  assert.equal((await pdfExpansion("hidden.pdf", pdf, 8 * MiB))?.status, 413);
});
