import type { SearchMode } from "../port.ts";
import type { JsonPathFilter } from "./filter.ts";
import { anyTermQuery } from "./terms.ts";

/** BM25's constants, the embedded index's. */
const K1 = 1.2;
const B = 0.75;
/** RRF's k (Cormack et al.), as `reciprocalRankFusion` uses. */
const RRF_K = 60;

export type SearchInput = {
  mode: SearchMode;
  tenant: string;
  namespace: string;
  topK: number;
  terms: string[];
  vector?: number[];
  filter: JsonPathFilter | undefined;
};

/**
 * One statement per search, so hybrid is one round trip. Parameters:
 * $1 tenant, $2 namespace, $3 top k, $4 candidates per side, $5 filter path
 * (or null), $6 its values; then the query's terms (text[]) and the same as a
 * tsquery ($7, $8: sparse and hybrid), and the query vector ($7 dense, $9 hybrid). Scores mean what the embedded index's do:
 * cosine similarity (dense), Okapi BM25 over sift's analyzed terms (sparse),
 * reciprocal rank fusion with k = 60 (hybrid); ties go to the smaller id.
 */
export function searchStatement(input: SearchInput): { text: string; values: unknown[] } {
  // Fusion needs more than topK from each side, as in the embedded index.
  const candidates = input.mode === "hybrid" ? Math.max(input.topK * 5, 50) : input.topK;
  const values = [
    input.tenant,
    input.namespace,
    input.topK,
    candidates,
    input.filter?.path ?? null,
    JSON.stringify(input.filter?.vars ?? {}),
  ];
  const vector = input.vector ? `[${input.vector.join(",")}]` : null;
  const terms = [textArray(input.terms), input.terms.length ? anyTermQuery(input.terms) : ""];
  const hit = (from: string) =>
    `SELECT c.id, c.doc_id, c.text, c.metadata, f.score FROM ${from}
     JOIN sift_chunks c ON c.tenant = $1 AND c.namespace = $2 AND c.id = f.id`;
  if (input.mode === "dense") {
    return {
      text: `${hit(`(${dense(7)}) f`)} ORDER BY f.score DESC, f.id LIMIT $3::int`,
      values: [...values, vector],
    };
  }
  if (input.mode === "sparse") {
    return {
      text: `WITH ${SPARSE} ${hit("sparse f")} ORDER BY f.score DESC, f.id LIMIT $3::int`,
      values: [...values, ...terms],
    };
  }
  return {
    text: `WITH ${SPARSE},
      dense AS (${dense(9)}),
      dense_ranked AS (SELECT id, row_number() OVER (ORDER BY score DESC, id) AS rank FROM dense),
      sparse_ranked AS (SELECT id, row_number() OVER (ORDER BY score DESC, id) AS rank FROM sparse),
      fused AS (
        SELECT coalesce(d.id, s.id) AS id,
          coalesce(1.0::float8 / (${RRF_K} + d.rank), 0) + coalesce(1.0::float8 / (${RRF_K} + s.rank), 0)
            AS score,
          least(d.rank, s.rank) AS best, d.rank AS dense_rank, s.rank AS sparse_rank
        FROM dense_ranked d FULL JOIN sparse_ranked s ON d.id = s.id)
      ${hit("fused f")}
      ORDER BY f.score DESC, f.best, f.dense_rank NULLS LAST, f.sparse_rank LIMIT $3::int`,
    values: [...values, ...terms, vector],
  };
}

/** The nearest chunks by cosine, the query vector being parameter `$<vectorParam>`. */
const dense = (vectorParam: number) =>
  `SELECT id, score FROM sift_dense($1::text, $2::text, $${vectorParam}::text::vector, $4::int,
    $5::text::jsonpath, $6::text::jsonb)`;

/**
 * BM25 as the embedded index computes it: idf from the namespace's kept
 * statistics, tf from the length of a term's position list in the chunk's
 * `tsvector` (only the query's terms are kept, by weight), length
 * normalized by the namespace's mean. The GIN index finds the chunks.
 */
const SPARSE = `stats AS (
    SELECT chunks::float8 AS n, total_length::float8 / greatest(chunks, 1) AS avgdl
    FROM sift_namespaces WHERE tenant = $1::text AND namespace = $2::text),
  idf AS (
    SELECT t.term, ln(1 + (s.n - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM sift_terms t, stats s
    WHERE t.tenant = $1::text AND t.namespace = $2::text AND t.term = ANY($7::text::text[]) AND t.df > 0),
  sparse AS (
    SELECT c.id, sum(
        q.idf * (u.tf * ${K1 + 1}) / (u.tf + ${K1} * (${1 - B} + ${B} * c.length / s.avgdl))
      ) AS score
    FROM sift_chunks c CROSS JOIN stats s
    CROSS JOIN LATERAL (
      SELECT lexeme, cardinality(positions)::float8 AS tf
      FROM unnest(ts_filter(setweight(c.terms, 'A', $7::text::text[]), '{a}'))) u
    JOIN idf q ON q.term = u.lexeme
    WHERE c.tenant = $1::text AND c.namespace = $2::text AND c.terms @@ $8::text::tsquery
      AND ($5::text::jsonpath IS NULL OR jsonb_path_match(c.metadata, $5::text::jsonpath, $6::text::jsonb))
    GROUP BY c.id ORDER BY score DESC, c.id LIMIT $4::int)`;

/** A Postgres `text[]` literal: each element double-quoted, `"` and `\` escaped. */
function textArray(items: readonly string[]): string {
  return `{${
    items.map((item) => `"${item.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")
  }}`;
}
