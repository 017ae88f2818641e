/** What a citation label is made of: a chunk's document title and where in it the chunk sits. */
export type Cited = {
  title?: string | undefined;
  doc_id?: string | undefined;
  id?: string | undefined;
  section?: string | undefined;
  page?: number | undefined;
  page_end?: number | undefined;
  chunk_index?: number | undefined;
};

const MAX_SECTION_CHARS = 60;
const MAX_TITLE_CHARS = 80;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The last heading of a path: `§4.1` when it is numbered, else `§ Related work`. */
function sectionPart(section: string): string | undefined {
  const heading = section.split(" > ").at(-1)?.trim();
  if (!heading) return undefined;
  const numbered = /^((?:\d+|[A-Z])(?:\.\d+)*)\.?(?:\s|$)/.exec(heading);
  return numbered ? `§${numbered[1]}` : `§ ${clip(heading, MAX_SECTION_CHARS)}`;
}

/**
 * How a person finds a cited passage: the document's title, the section and
 * the page(s), e.g. `RoBERTa, §4.1, p. 6` or `Notes, § Setup, pp. 2-3`.
 *
 * @example
 * citationLabel({ title: "RoBERTa", section: "RoBERTa > 4 Experiments > 4.1 Training", page: 6 });
 * // "RoBERTa, §4.1, p. 6"
 */
export function citationLabel(cited: Cited): string {
  const parts = [clip(cited.title ?? cited.doc_id ?? cited.id ?? "document", MAX_TITLE_CHARS)];
  const section = cited.section ? sectionPart(cited.section) : undefined;
  if (section) parts.push(section);
  if (cited.page !== undefined) {
    parts.push(
      cited.page_end !== undefined && cited.page_end !== cited.page
        ? `pp. ${cited.page}-${cited.page_end}`
        : `p. ${cited.page}`,
    );
  }
  return parts.join(", ");
}

/**
 * Labels for a list of citations, in order. Two different chunks whose labels
 * would read the same (one document, no section or page to tell them apart)
 * each get their part number, `chunk 3`.
 */
export function citationLabels(citations: readonly Cited[]): string[] {
  const labels = citations.map(citationLabel);
  const chunksByLabel = new Map<string, Set<string>>();
  citations.forEach((cited, at) => {
    const chunks = chunksByLabel.get(labels[at]!) ?? new Set();
    chunks.add(cited.id ?? String(at));
    chunksByLabel.set(labels[at]!, chunks);
  });
  return labels.map((label, at) => {
    const index = citations[at]!.chunk_index;
    return (chunksByLabel.get(label)?.size ?? 0) > 1 && index !== undefined
      ? `${label}, chunk ${index + 1}`
      : label;
  });
}

/** The label's parts as a chunk's metadata holds them (untrusted: anything else is left out). */
export function citedFromMetadata(metadata: Record<string, unknown>): Cited {
  const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  const page = (value: unknown) =>
    typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
  return {
    title: text(metadata.title),
    doc_id: text(metadata.doc_id),
    section: text(metadata.section),
    page: page(metadata.page),
    page_end: page(metadata.page_end),
    chunk_index: typeof metadata.chunk_index === "number" ? metadata.chunk_index : undefined,
  };
}
