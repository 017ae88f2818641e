import type { ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileLimits } from "./limits.ts";
import { docxBlocks } from "./docx-body.ts";
import { fastenOpenElements } from "./html-stack.ts";
import { unzipEntries } from "./unzip.ts";

const DOCUMENT = "word/document.xml";
const STYLES = "word/styles.xml";

/** Style ids to their names (`Heading1` → `heading 1`), so localized Word files work too. */
async function styleNames(xml: string | undefined): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!xml) return names;
  const { Parser } = await import("htmlparser2");
  let id: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === "w:style") id = attributes["w:styleid"];
      else if (name === "w:name" && id) names.set(id, (attributes["w:val"] ?? "").toLowerCase());
    },
  }, { xmlMode: true, lowerCaseAttributeNames: true });
  fastenOpenElements(parser);
  parser.write(xml);
  parser.end();
  return names;
}

/**
 * A Word document's text: paragraphs with headings (by their style) as the
 * section path, list items, and tables as rows of cells. The archive is
 * inflated with the `ARCHIVE_MAX_EXPANDED_BYTES` bound.
 */
export async function parseDocx(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedDocument> {
  const entries = await unzipEntries(bytes, [DOCUMENT, STYLES], {
    file: name,
    maxExpandedBytes: limits.maxExpandedBytes,
  });
  const documentXml = entries.get(DOCUMENT);
  if (!documentXml) {
    throw new DocumentRefusedError(name, "unreadable", `is a zip without ${DOCUMENT}`);
  }
  const decoder = new TextDecoder();
  const styles = await styleNames(
    entries.has(STYLES) ? decoder.decode(entries.get(STYLES)) : undefined,
  );
  return await docxBlocks(decoder.decode(documentXml), styles);
}
