/**
 * PDFs written by hand for parser tests: a few objects, Helvetica (one of the
 * 14 standard fonts, so no font file), and an xref table with real offsets.
 * Small enough to read in a test, and shaped at will: rotated text (a
 * watermark), a line on every page, two columns, a page tree that loops.
 */

/** One line of text: its baseline origin, font size and (for a watermark) angle in degrees. */
export type PdfLine = { text: string; x: number; y: number; size: number; angle?: number };

const escapePdf = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);

/** A page's content stream: one text object per line, rotated by `Tm` where asked. */
function contentOf(lines: readonly PdfLine[]): string {
  return lines.map(({ text, x, y, size, angle = 0 }) => {
    const radians = (angle * Math.PI) / 180;
    const [cos, sin] = [Math.cos(radians), Math.sin(radians)].map((v) => v.toFixed(4));
    return `BT /F1 ${size} Tf ${cos} ${sin} ${-Number(sin)} ${cos} ${x} ${y} Tm (${
      escapePdf(text)
    }) Tj ET`;
  }).join("\n");
}

/** A PDF file from numbered objects' bodies (object 1 is the catalog), with its xref. */
export function pdfOfObjects(objects: readonly string[], trailer = ""): Uint8Array {
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/**
 * A PDF of US-letter pages (612 × 792), each a list of lines in Helvetica;
 * `title` goes in the document information dictionary when given.
 */
export function makePdf(pages: readonly PdfLine[][], options: { title?: string } = {}): Uint8Array {
  // 1 catalog, 2 page tree, 3 font, 4 info, then a page and its content per page.
  const pageIds = pages.map((_, index) => 5 + index * 2);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${
      pageIds.map((id) => `${id} 0 R`).join(" ")
    }] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    options.title ? `<< /Title (${escapePdf(options.title)}) >>` : "<< /Producer (sift tests) >>",
  ];
  for (const [index, lines] of pages.entries()) {
    const stream = contentOf(lines);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ` +
        `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[index]! + 1} 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  }
  return pdfOfObjects(objects, "/Info 4 0 R ");
}

/** A one-page PDF whose page tree lists itself as its own kid: pdf.js finds the loop. */
export function loopingPagesPdf(): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
  ]);
}

/** Lines of filler prose set in one column, top down from `top`, `size` points apart. */
export function columnLines(
  words: readonly string[],
  options: { x: number; top: number; count: number; size?: number; width?: number },
): PdfLine[] {
  const size = options.size ?? 10;
  const perLine = Math.max(3, Math.floor((options.width ?? 230) / (size * 2.6)));
  return Array.from({ length: options.count }, (_, line) => ({
    text: Array.from({ length: perLine }, (_, at) => words[(line * perLine + at) % words.length])
      .join(" "),
    x: options.x,
    y: options.top - line * size * 1.3,
    size,
  }));
}
