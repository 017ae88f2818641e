import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { inflate, type InflateBudget, InflateError } from "./inflate.ts";
import { flateStreams, zlibHeaderAt } from "./pdf-streams.ts";
import { yieldingEvery } from "./yielding.ts";

/**
 * Images are inflated by pdf.js to draw them, never to read text, and a paper
 * with a dozen screenshots holds hundreds of MB of pixels: they share this
 * many times `ARCHIVE_MAX_EXPANDED_BYTES` of their own (counted all the same,
 * since pdf.js reads a content stream that calls itself an image).
 */
const IMAGE_FACTOR = 8;

/**
 * The refusal of a PDF whose streams inflate past `maxExpandedBytes`
 * (`ARCHIVE_MAX_EXPANDED_BYTES`), checked before pdf.js reads it, since
 * pdf.js holds a stream's whole inflated bytes and has no bound of its own:
 * a 2 MB PDF may hold a content stream of 1 GB. Every stream that starts with
 * a zlib header (see `flateStreams`) is inflated and counted, not kept, and
 * its output inflated again while that is zlib too (a `[/FlateDecode
 * /FlateDecode]` chain, kept one layer at a time); a stream that does not
 * inflate to its end counts what it gave (pdf.js reads on past damage too).
 * Cheap beside pdf.js's own parse: native inflating, one pass over the bytes.
 */
export async function pdfExpansion(
  name: string,
  bytes: Uint8Array,
  maxExpandedBytes: number,
): Promise<DocumentRefusedError | undefined> {
  const budget: InflateBudget = { left: maxExpandedBytes };
  const images: InflateBudget = { left: IMAGE_FACTOR * maxExpandedBytes };
  const pause = yieldingEvery();
  let fed = 0;
  for (const stream of flateStreams(bytes)) {
    // Streams of a well-formed file never overlap; ones that share their bytes could make
    // this pass inflate the same megabytes once per `stream` keyword planted in them.
    fed += stream.end - stream.start;
    if (fed > 2 * bytes.byteLength) {
      return new DocumentRefusedError(
        name,
        "unreadable",
        "is damaged: its compressed streams overlap one another",
      );
    }
    const spent = stream.image ? images : budget;
    await inflateLayers(bytes.subarray(stream.start, stream.end), spent);
    if (spent.left < 0) {
      const bound = stream.image
        ? `its images expand past ${IMAGE_FACTOR * maxExpandedBytes} bytes ` +
          `(${IMAGE_FACTOR} × ARCHIVE_MAX_EXPANDED_BYTES)`
        : `expands past ${maxExpandedBytes} bytes (ARCHIVE_MAX_EXPANDED_BYTES)`;
      return new DocumentRefusedError(
        name,
        "too_large",
        `${bound} when its streams are inflated; refused as a possible decompression bomb`,
      );
    }
    await pause();
  }
  return undefined;
}

/** A stream's data inflated and counted, and its output again while that is zlib too. */
async function inflateLayers(data: Uint8Array, budget: InflateBudget): Promise<void> {
  // The two bytes before `endstream` may be the line end pdf.js's data runs on to.
  let tailBytes = 2;
  while (data.byteLength > 0 && zlibHeaderAt(data, 0) && budget.left >= 0) {
    try {
      data = await inflate(data, "deflate", budget, {
        keep: (head) => zlibHeaderAt(head, 0),
        tailBytes,
      });
    } catch (error) {
      if (error instanceof InflateError) return;
      throw error;
    }
    tailBytes = 0;
  }
}
