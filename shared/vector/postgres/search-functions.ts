/**
 * The two functions every search calls, as the schema's migrations create
 * them (schema.ts). Each takes the namespace, what to rank by, how many rows,
 * and an optional filter (a jsonpath and its variables), and returns
 * `(id, score)` best first.
 */

/** BM25's constants, the embedded index's. */
const K1 = 1.2;
const B = 0.75;

/**
 * Dense search: the HNSW index of the query's width, searched with an
 * ef_search that fits the rows asked for and an iterative scan, so a
 * tenant's filter does not starve the results. The settings live and die
 * with the call. A sequential scan is ruled out: on a table of a few
 * thousand rows the planner costs the HNSW scan above reading every vector
 * (measured at 10k chunks, 2,048 dimensions: 92 ms read whole, 2.2 ms by the
 * index); an index on the namespace (its primary key) stays open to it, for
 * a namespace too small to be worth the graph. `ROWS` tells the planner how
 * many rows come back, so the join to the chunks is a nested loop.
 */
export const SIFT_DENSE = `CREATE OR REPLACE FUNCTION sift_dense(
    p_tenant text, p_namespace text, p_query vector, p_limit integer,
    p_filter jsonpath, p_vars jsonb
  ) RETURNS TABLE (id text, score double precision)
  LANGUAGE plpgsql STABLE ROWS 50
  SET hnsw.ef_search = 40
  SET hnsw.iterative_scan = 'relaxed_order'
  SET enable_seqscan = off
  AS $fn$
  DECLARE
    width integer := vector_dims(p_query);
    held integer;
    nearest text := CASE WHEN width <= 4000
      THEN format('embedding::halfvec(%s) <=> $3::halfvec(%s)', width, width)
      ELSE 'embedding <=> $3' END;
  BEGIN
    -- A query of another width than the namespace holds is the caller's mistake (400).
    SELECT n.dims INTO held FROM sift_namespaces n
      WHERE n.tenant = p_tenant AND n.namespace = p_namespace AND n.chunks > 0;
    IF held IS NOT NULL AND held <> width THEN
      RAISE EXCEPTION USING ERRCODE = 'SW001', MESSAGE = format(
        'The index holds %s-dimensional vectors but the query has %s', held, width);
    END IF;
    PERFORM set_config('hnsw.ef_search', least(1000, greatest(40, p_limit * 2))::text, true);
    RETURN QUERY EXECUTE format(
      'SELECT c.id::text, 1 - (c.embedding <=> $3) AS score FROM (
         SELECT s.id, s.embedding FROM sift_chunks s
         WHERE s.tenant = $1 AND s.namespace = $2 AND s.dims = %s
           AND ($5 IS NULL OR jsonb_path_match(s.metadata, $5, $6))
         ORDER BY %s LIMIT $4 * 2) c
       ORDER BY score DESC, c.id LIMIT $4', width, nearest)
    USING p_tenant, p_namespace, p_query, p_limit, p_filter, p_vars;
  END
  $fn$`;

/**
 * Sparse search: exact Okapi BM25 (the embedded index's terms, statistics and
 * formula) that reads only the postings it must, by MaxScore (Turtle and
 * Flood, 1995). The query's terms are taken rarest first. A term adds at
 * most idf · (k1 + 1) to a chunk's score, so a chunk holding none of the
 * first i terms scores at most the sum of that bound over the others. The
 * chunks holding any of the first i terms (the GIN index finds them) are
 * scored on every query term; once the last of the top `p_limit` scores more
 * than that sum, no other chunk can enter, and the ranking is the exact one.
 * Otherwise the next term joins. A question of rare words reads their few
 * postings; one of common words alone reads them all, as before.
 *
 * `p_queries[i]` is `p_terms[i]` as a tsquery (`'bert'`). tf is the length of
 * a term's position list in the chunk's tsvector; only the query's terms are
 * kept from it (`setweight` … `ts_filter`).
 */
export const SIFT_SPARSE = `CREATE OR REPLACE FUNCTION sift_sparse(
    p_tenant text, p_namespace text, p_terms text[], p_queries text[], p_limit integer,
    p_filter jsonpath, p_vars jsonb
  ) RETURNS TABLE (id text, score double precision)
  LANGUAGE plpgsql STABLE ROWS 50
  AS $fn$
  DECLARE
    n float8;
    avgdl float8;
    terms text[];
    idfs float8[];
    queries text[];
    dfs bigint[];
    reach bigint := 0;
    rest float8;
    ids text[];
    scores float8[];
  BEGIN
    SELECT s.chunks::float8, s.total_length::float8 / greatest(s.chunks, 1) INTO n, avgdl
      FROM sift_namespaces s WHERE s.tenant = p_tenant AND s.namespace = p_namespace;
    IF n IS NULL OR n = 0 OR p_limit < 1 THEN RETURN; END IF;
    SELECT array_agg(x.term ORDER BY x.df, x.term), array_agg(x.idf ORDER BY x.df, x.term),
        array_agg(x.query ORDER BY x.df, x.term), array_agg(x.df ORDER BY x.df, x.term)
      INTO terms, idfs, queries, dfs
      FROM (SELECT t.term, t.df, q.query, ln(1 + (n - t.df + 0.5) / (t.df + 0.5)) AS idf
        FROM sift_terms t JOIN unnest(p_terms, p_queries) AS q(term, query) ON q.term = t.term
        WHERE t.tenant = p_tenant AND t.namespace = p_namespace AND t.df > 0) x;
    IF terms IS NULL THEN RETURN; END IF;
    FOR i IN 1..cardinality(terms) LOOP
      reach := reach + dfs[i];
      -- Fewer chunks than asked for hold the terms so far: the next term must join anyway.
      CONTINUE WHEN i < cardinality(terms) AND reach < p_limit;
      rest := coalesce((SELECT sum(b) * ${K1 + 1} FROM unnest(idfs[i + 1:]) b), 0);
      -- Planned per call (EXECUTE): the terms read decide between the GIN index and others.
      EXECUTE
        'SELECT array_agg(x.id ORDER BY x.score DESC, x.id),
           array_agg(x.score ORDER BY x.score DESC, x.id)
         FROM (SELECT c.id, sum(
             q.idf * (u.tf * ${K1 + 1}) / (u.tf + ${K1} * (${1 - B} + ${B} * c.length / $8))
           ) AS score
           FROM sift_chunks c
           CROSS JOIN LATERAL (SELECT lexeme, cardinality(positions)::float8 AS tf
             FROM unnest(ts_filter(setweight(c.terms, ''A'', $3), ''{a}''))) u
           JOIN unnest($3, $4) AS q(term, idf) ON q.term = u.lexeme
           WHERE c.tenant = $1 AND c.namespace = $2 AND c.terms @@ $7::tsquery
             AND ($5 IS NULL OR jsonb_path_match(c.metadata, $5, $6))
           GROUP BY c.id ORDER BY score DESC, c.id LIMIT $9) x'
        INTO ids, scores
        USING p_tenant, p_namespace, terms, idfs, p_filter, p_vars,
          array_to_string(queries[1:i], ' | '), avgdl, p_limit;
      IF i = cardinality(terms) OR (coalesce(cardinality(ids), 0) >= p_limit
          AND scores[p_limit] > rest) THEN
        RETURN QUERY SELECT * FROM unnest(ids, scores);
        RETURN;
      END IF;
    END LOOP;
  END
  $fn$`;
