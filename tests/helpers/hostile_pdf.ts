/**
 * Hostile PDFs, written in the tests that use them (no blobs checked in):
 * small files that make a parser build something enormous.
 */
import { pdfOfObjects } from "./pdf.ts";

/**
 * Under 1 KB: a font whose `ToUnicode` CMap maps six ranges of 16.7M codes
 * each (about 100M in all, each range just under pdf.js's per-range cap), so
 * a parser that builds the map as written needs gigabytes.
 */
export function cmapBombPdf(): Uint8Array {
  const ranges = Array.from({ length: 6 }, (_, at) => {
    const high = at.toString(16).padStart(2, "0").toUpperCase();
    return `<${high}000000> <${high}FFFFFE> <0041>`;
  });
  const cmap = [
    "begincmap 1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange",
    `${ranges.length} beginbfrange`,
    ...ranges,
    "endbfrange endcmap",
  ].join("\n");
  const content = "BT /F1 12 Tf 72 720 Td (Hi) Tj ET";
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R " +
    "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ]);
}

/**
 * A one-page PDF whose content stream inflates to `expandedBytes`: a line of
 * text and then blanks, which DEFLATE packs about 1000:1 (1 GiB in about
 * 1 MiB), so a parser that inflates it whole holds the whole of it.
 */
export async function flateBombPdf(expandedBytes: number): Promise<Uint8Array> {
  return pdfWithContents(await deflatedPage(expandedBytes), 1);
}

/**
 * A PDF of a few KB whose one page lists the same content stream `times`
 * times (each inflating to `expandedBytes`): each stream is small and listed
 * once in the file, but a parser reads it `times` times over.
 */
export async function repeatedStreamPdf(
  times: number,
  expandedBytes: number,
): Promise<Uint8Array> {
  return pdfWithContents(await deflatedPage(expandedBytes), times);
}

/** A line of text and then blanks, `expandedBytes` in all, deflated (zlib). */
async function deflatedPage(expandedBytes: number): Promise<Uint8Array> {
  const text = new TextEncoder().encode(
    "BT /F1 12 Tf 72 720 Td (Hello from a page that inflates) Tj ET\n",
  );
  const blanks = new Uint8Array(16 * 1024 * 1024).fill(0x20);
  const deflate = new CompressionStream("deflate");
  const writer = deflate.writable.getWriter();
  const parts: Uint8Array[] = [];
  const reading = (async () => {
    for await (const part of deflate.readable) parts.push(part);
  })();
  await writer.write(text);
  for (let written = text.byteLength; written < expandedBytes; written += blanks.byteLength) {
    await writer.write(blanks.subarray(0, Math.min(blanks.byteLength, expandedBytes - written)));
  }
  await writer.close();
  await reading;
  const stream = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    stream.set(part, at);
    at += part.byteLength;
  }
  return stream;
}

/** A one-page PDF whose `/Contents` names the deflated stream `times` times. */
function pdfWithContents(stream: Uint8Array, times: number): Uint8Array {
  const contents = times === 1 ? "5 0 R" : `[${"5 0 R ".repeat(times).trim()}]`;
  const head = pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
    `/Resources << /Font << /F1 4 0 R >> >> /Contents ${contents} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${stream.byteLength} /Filter /FlateDecode >>\nstream\nSTREAM\nendstream`,
  ]);
  // pdfOfObjects writes text: the compressed bytes go where the marker is, offsets shifted after.
  return withStreamBytes(head, stream);
}

/** `pdf` with its `STREAM` marker replaced by `bytes`, its xref offsets moved to match. */
function withStreamBytes(pdf: Uint8Array, bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(pdf);
  const marker = text.indexOf("\nSTREAM\n") + 1;
  const shift = bytes.byteLength - "STREAM".length;
  const tail = text.slice(marker + "STREAM".length).replace(
    /^(\d{10}) 00000 n $/gm,
    (line, offset: string) =>
      Number(offset) > marker
        ? `${String(Number(offset) + shift).padStart(10, "0")} 00000 n `
        : line,
  ).replace(/startxref\n(\d+)/, (_, offset: string) => `startxref\n${Number(offset) + shift}`);
  const encode = (latin1: string) => Uint8Array.from(latin1, (char) => char.charCodeAt(0));
  const before = encode(text.slice(0, marker));
  const after = encode(tail);
  const out = new Uint8Array(before.byteLength + bytes.byteLength + after.byteLength);
  out.set(before);
  out.set(bytes, before.byteLength);
  out.set(after, before.byteLength + bytes.byteLength);
  return out;
}
