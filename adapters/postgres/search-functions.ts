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
 * Below this many chunks, or this share of the vectors of its width, a
 * namespace is searched exactly (its rows found through its key, every
 * distance computed): the graph would be walked past many others' rows to
 * find its own.
 */
const EXACT_DENSE_CHUNKS = 2000;
const EXACT_DENSE_SHARE = 0.01;

/**
 * Dense search: the HNSW index of the query's width, searched with an
 * ef_search that fits the rows asked for, at least 400 (recall@10 against
 * exact search on the bench's 20k chunks, ARAGOG's copied with jitter: 0.80
 * at 100, 0.90 at 200, 0.975 at 400, for 3.1, 3.7 and 4.8 ms), and an iterative scan, so a tenant's filter
 * does not starve the results; or exactly, for a namespace that holds few of
 * the vectors (above). The planner gets no say: on a table of a few thousand
 * rows it costs the HNSW scan above reading every vector (measured at 10k
 * chunks, 2,048 dimensions: 92 ms read whole, 2.2 ms by the index), and for a
 * namespace of a third of the rows above reading that third through the key
 * and sorting it (97 ms). Ruling those out makes every plan's cost huge, and
 * a huge cost turns on JIT compilation (50-140 ms a call): off too. The
 * settings live and die with the call. `ROWS`
 * tells the planner how many rows come back, so the join to the chunks is a
 * nested loop.
 */
export const SIFT_DENSE = `CREATE OR REPLACE FUNCTION sift_dense(
    p_tenant text, p_namespace text, p_query vector, p_limit integer,
    p_filter jsonpath, p_vars jsonb
  ) RETURNS TABLE (id text, score double precision)
  LANGUAGE plpgsql STABLE ROWS 50
  SET hnsw.ef_search = 400
  SET hnsw.iterative_scan = 'relaxed_order'
  SET hnsw.max_scan_tuples = 50000
  SET enable_seqscan = off
  SET enable_sort = off
  SET jit = off
  AS $fn$
  DECLARE
    width integer := vector_dims(p_query);
    held integer;
    mine bigint;
    wide bigint;
    nearest text := CASE WHEN width <= 4000
      THEN format('embedding::halfvec(%s) <=> $3::halfvec(%s)', width, width)
      ELSE 'embedding <=> $3' END;
  BEGIN
    -- A query of another width than the namespace holds is the caller's mistake (400).
    SELECT n.dims, n.chunks INTO held, mine FROM sift_namespaces n
      WHERE n.tenant = p_tenant AND n.namespace = p_namespace AND n.chunks > 0;
    IF held IS NOT NULL AND held <> width THEN
      RAISE EXCEPTION USING ERRCODE = 'SW001', MESSAGE = format(
        'The index holds %s-dimensional vectors but the query has %s', held, width);
    END IF;
    IF mine IS NULL THEN RETURN; END IF;
    SELECT sum(n.chunks) INTO wide FROM sift_namespaces n WHERE n.dims = width;
    IF mine <= ${EXACT_DENSE_CHUNKS} OR mine < wide * ${EXACT_DENSE_SHARE} THEN
      -- Exact: the full vectors' distance, which no index orders by.
      nearest := 'embedding <=> $3';
    END IF;
    PERFORM set_config('hnsw.ef_search', least(1000, greatest(400, p_limit * 4))::text, true);
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
 * Otherwise the next term joins, and only the chunks holding it and none of
 * the terms before are read (`'c' & !('a' | 'b')`, which GIN answers from
 * its posting lists), their scores merged with the best so far. A question
 * of rare words reads their few postings; one of common words alone reads
 * them all, as before.
 *
 * Reading a namespace whole is ruled out: by a sequential scan (which reads
 * every tenant's rows), or through its key, which a planner without fresh
 * statistics takes for narrow (it read all 3,000 chunks of a namespace for
 * five holding a rare term): the namespace is matched with `IS NOT DISTINCT
 * FROM`, which no index serves, so the GIN index finds the chunks. JIT
 * compilation, which a large scan's cost turns on, is off: it costs more
 * than it saves here.
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
  SET enable_seqscan = off
  SET jit = off
  AS $fn$
  DECLARE
    n float8;
    avgdl float8;
    terms text[];
    idfs float8[];
    queries text[];
    dfs bigint[];
    reach bigint := 0;
    done integer := 0;
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
      -- The chunks holding terms read in this round but none read before, scored on every
      -- query term, merged with the best so far. Planned per call (EXECUTE): the terms read
      -- decide between the GIN index and others.
      EXECUTE
        'SELECT array_agg(x.id ORDER BY x.score DESC, x.id),
           array_agg(x.score ORDER BY x.score DESC, x.id)
         FROM (SELECT * FROM (
             SELECT c.id, sum(
               q.idf * (u.tf * ${K1 + 1}) / (u.tf + ${K1} * (${1 - B} + ${B} * c.length / $8))
             ) AS score
             FROM sift_chunks c
             CROSS JOIN LATERAL (SELECT lexeme, cardinality(positions)::float8 AS tf
               FROM unnest(ts_filter(setweight(c.terms, ''A'', $3), ''{a}''))) u
             JOIN unnest($3, $4) AS q(term, idf) ON q.term = u.lexeme
             WHERE c.terms @@ $7::tsquery
               AND c.tenant IS NOT DISTINCT FROM $1 AND c.namespace IS NOT DISTINCT FROM $2
               AND ($5 IS NULL OR jsonb_path_match(c.metadata, $5, $6))
             GROUP BY c.id
             UNION ALL SELECT * FROM unnest($10::text[], $11::float8[])) y
           ORDER BY y.score DESC, y.id LIMIT $9) x'
        INTO ids, scores
        USING p_tenant, p_namespace, terms, idfs, p_filter, p_vars,
          CASE WHEN done = 0 THEN array_to_string(queries[1:i], ' | ')
            ELSE format('(%s) & !(%s)', array_to_string(queries[done + 1:i], ' | '),
              array_to_string(queries[1:done], ' | ')) END,
          avgdl, p_limit, ids, scores;
      done := i;
      IF i = cardinality(terms) OR (coalesce(cardinality(ids), 0) >= p_limit
          AND scores[p_limit] > rest) THEN
        RETURN QUERY SELECT * FROM unnest(ids, scores);
        RETURN;
      END IF;
    END LOOP;
  END
  $fn$`;
