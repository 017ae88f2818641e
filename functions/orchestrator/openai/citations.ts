import type { SearchHit } from "../../../shared/vector/port.ts";
import { citationLabels, citedFromMetadata } from "../../../shared/documents/citation-label.ts";

/** A passage the answer was given: `sources[n - 1]` is what `[n]` cites. */
export type Source = {
  index: number;
  id: string;
  doc_id: string;
  title?: string;
  text: string;
  url?: string;
  section?: string;
  page?: number;
  page_end?: number;
  /** Title, section and page as a person reads them: `RoBERTa, §4.1, p. 6`. */
  label: string;
  /** The rerank's final score, or the retrieval score when no rerank ran. */
  score: number;
};

export type UrlCitation = {
  type: "url_citation";
  url_citation: { url: string; title: string; start_index: number; end_index: number };
};

const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

export function sourceOf(
  hit: SearchHit,
  index: number,
  score = hit.score,
  label = citationLabels([{ ...citedFromMetadata(hit.metadata), id: hit.id }])[0]!,
): Source {
  const title = text(hit.metadata.title);
  const url = text(hit.metadata.url);
  const { section, page, page_end } = citedFromMetadata(hit.metadata);
  return {
    index,
    id: hit.id,
    doc_id: hit.doc_id,
    ...(title ? { title } : {}),
    text: hit.text,
    ...(url ? { url } : {}),
    ...(section ? { section } : {}),
    ...(page !== undefined ? { page } : {}),
    ...(page_end !== undefined ? { page_end } : {}),
    label,
    score,
  };
}

/** The answer's passages as sources, `[n]` being `sources[n - 1]`, each labelled apart from the others. */
export function sourcesOf(hits: readonly SearchHit[], scores: Map<string, number>): Source[] {
  const labels = citationLabels(
    hits.map((hit) => ({ ...citedFromMetadata(hit.metadata), id: hit.id })),
  );
  return hits.map((hit, i) => sourceOf(hit, i + 1, scores.get(hit.id), labels[i]));
}

/**
 * Where a citation points: the document's `url`, else `sift://<namespace>/<chunk id>`
 * with the chunk id percent-encoded (`sift://default/rrf%230` is chunk `rrf#0`).
 */
export function citationUrl(source: Source, namespace: string): string {
  return source.url ?? `sift://${namespace}/${encodeURIComponent(source.id)}`;
}

/**
 * OpenAI's `url_citation` annotations for the `[n]` markers in `content`
 * (also `[1][3]` and `[1, 3]`, as the answer function reads them): one per
 * cited source, its range the marker's own, as JS string indices into the
 * content. Numbers that name no source are left alone.
 *
 * @example
 * annotate("RRF sums ranks [1].", [rrf], "default")[0].url_citation; // {start_index: 15, end_index: 18, ...}
 */
export function annotate(
  content: string,
  sources: readonly Source[],
  namespace: string,
): UrlCitation[] {
  const annotations: UrlCitation[] = [];
  for (const marker of content.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const number of marker[1]!.split(/[,;]/)) {
      const source = sources[Number(number.trim()) - 1];
      if (!source) continue;
      annotations.push({
        type: "url_citation",
        url_citation: {
          url: citationUrl(source, namespace),
          title: source.label,
          start_index: marker.index,
          end_index: marker.index + marker[0].length,
        },
      });
    }
  }
  return annotations;
}
