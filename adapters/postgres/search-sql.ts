import type { SearchMode } from "../../shared/vector/port.ts";
import type { JsonPathFilter } from "./filter.ts";
import { termQuery } from "./terms.ts";
import { vectorLiteral } from "./vector-literal.ts";

export type SearchInput = {
  mode: SearchMode;
  tenant: string;
  namespace: string;
  topK: number;
  /** The query's terms (sparse and hybrid; none leaves hybrid's sparse side out). */
  terms: string[];
  vector?: number[];
  filter: JsonPathFilter | undefined;
};

/** Rows each side gives a hybrid search to fuse, as the embedded index takes them. */
export function hybridCandidates(topK: number): number {
  return Math.max(topK * 5, 50);
}

/**
 * One statement per search, so hybrid is one round trip: `sift_dense`
 * (cosine similarity, HNSW) and `sift_sparse` (sift's own BM25, exact,
 * reading only the postings it must: see search-functions.ts), each joined
 * to the chunks' text and metadata and tagged with its side (`dense`,
 * `sparse`) and ranked within it, best first, ties to the smaller id. A hybrid search gets both
 * sides' candidates and sift fuses them as the embedded index does. Two
 * sides on two connections at once would save the shorter side's time, but
 * hold two connections per search, and PGlite's wire server garbles
 * statements that arrive at once on two connections.
 * Each ranked id is looked up by the primary key (`LATERAL … OFFSET 0`, which
 * the planner may not turn into a join: as a join it read the whole
 * namespace through its key to hash it, 3,000 rows for a top 3).
 * Parameters: $1 tenant, $2 namespace, $3 rows per side, $4 filter path (or
 * null), $5 its values, then the vector, the terms and their `tsquery`s, as
 * the sides use them.
 */
export function searchStatement(input: SearchInput): { text: string; values: unknown[] } {
  const limit = input.mode === "hybrid" ? hybridCandidates(input.topK) : input.topK;
  const values: unknown[] = [
    input.tenant,
    input.namespace,
    limit,
    input.filter?.path ?? null,
    JSON.stringify(input.filter?.vars ?? {}),
  ];
  /** The next parameter's placeholder (a statement names only what it uses: Postgres types them all). */
  const param = (value: unknown) => `$${values.push(value)}`;
  const side = (name: "dense" | "sparse", ranked: string) =>
    `SELECT '${name}' AS side, c.id, c.doc_id, c.text, c.metadata, f.score,
      row_number() OVER (ORDER BY f.score DESC, f.id) AS rank FROM ${ranked} f
      CROSS JOIN LATERAL (SELECT c.id, c.doc_id, c.text, c.metadata FROM sift_chunks c
        WHERE c.tenant = $1 AND c.namespace = $2 AND c.id = f.id OFFSET 0) c`;
  const dense = () =>
    side(
      "dense",
      `sift_dense($1::text, $2::text, ${param(vectorLiteral(input.vector!))}::text::vector,
        $3::int, $4::text::jsonpath, $5::text::jsonb)`,
    );
  const sparse = () =>
    side(
      "sparse",
      `sift_sparse($1::text, $2::text, ${param(textArray(input.terms))}::text::text[],
        ${param(textArray(input.terms.map(termQuery)))}::text::text[], $3::int,
        $4::text::jsonpath, $5::text::jsonb)`,
    );
  const sides = input.mode === "dense" || (input.mode === "hybrid" && !input.terms.length)
    ? [dense()]
    : input.mode === "sparse" || !input.vector
    ? [sparse()]
    : [dense(), sparse()];
  return { text: `${sides.join(" UNION ALL ")} ORDER BY side, rank`, values };
}

/** A Postgres `text[]` literal: each element double-quoted, `"` and `\` escaped. */
function textArray(items: readonly string[]): string {
  return `{${
    items.map((item) => `"${item.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")
  }}`;
}
