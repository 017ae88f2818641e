/**
 * A local stand-in for an Upstash Vector HYBRID index (dense COSINE + sparse),
 * speaking the REST envelope the way `@upstash/vector` 1.2.3 calls it: every
 * command is `POST {url}/{command}[/{namespace}]` with a JSON body and a Bearer
 * token; replies are `{"result": ...}` or `{"error": "...", "status": N}`.
 *
 * Everything lives in memory. Each request is recorded so tests can assert
 * what the SDK sent, and `failNext` makes the next requests fail.
 *
 * @example
 * await using server = startVectorRestServer();
 * const index = new Index({ url: server.url, token: server.token });
 */
import { z } from "zod";

export type RecordedRequest = {
  method: string;
  /** Path and query string, e.g. `/upsert/papers` or `/reset?all`. */
  path: string;
  body: unknown;
};

export type VectorRestServer = AsyncDisposable & {
  readonly url: string;
  readonly token: string;
  readonly requests: RecordedRequest[];
  /**
   * The next `times` requests (default 1) get this error instead of a reply,
   * after `delayMs` (default 0) so client deadlines can be tested.
   */
  failNext(options?: FailureOptions): void;
  close(): Promise<void>;
};

export type FailureOptions = {
  status?: number;
  error?: string;
  times?: number;
  delayMs?: number;
};

type Metadata = Record<string, unknown>;
type SparseVector = { indices: number[]; values: number[] };
type StoredVector = {
  id: string;
  vector: number[];
  sparseVector: SparseVector;
  metadata?: Metadata;
  data?: string;
};
type Namespace = Map<string, StoredVector>;

/** Upstash's reciprocal rank fusion constant. */
const RRF_K = 60;

class RestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const sparseVectorSchema = z.strictObject({
  indices: z.array(z.number().int().min(0)),
  values: z.array(z.number()),
}).refine((sparse) => sparse.indices.length === sparse.values.length, {
  message: "sparseVector indices and values must have the same length",
});

const upsertItemSchema = z.strictObject({
  id: z.union([z.string().min(1), z.number()]),
  vector: z.array(z.number()).optional(),
  sparseVector: sparseVectorSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  data: z.string().optional(),
});

const includeFlags = {
  includeMetadata: z.boolean().default(false),
  includeVectors: z.boolean().default(false),
  includeData: z.boolean().default(false),
};

const queryItemSchema = z.strictObject({
  vector: z.array(z.number()).optional(),
  sparseVector: sparseVectorSchema.optional(),
  topK: z.number().int().min(1).max(1000).default(10),
  filter: z.string().default(""),
  weightingStrategy: z.literal("IDF").optional(),
  fusionAlgorithm: z.enum(["RRF", "DBSF"]).optional(),
  queryMode: z.enum(["HYBRID", "DENSE", "SPARSE"]).optional(),
  ...includeFlags,
});
type QueryItem = z.infer<typeof queryItemSchema>;

const deleteSchema = z.union([
  z.strictObject({ ids: z.array(z.union([z.string(), z.number()])) }),
  z.strictObject({ prefix: z.string() }),
  z.strictObject({ filter: z.string() }),
]);

const fetchSchema = z.strictObject({
  ids: z.array(z.union([z.string(), z.number()])).optional(),
  prefix: z.string().optional(),
  ...includeFlags,
});

const rangeSchema = z.strictObject({
  cursor: z.union([z.string(), z.number()]),
  limit: z.number().int().min(1),
  prefix: z.string().optional(),
  ...includeFlags,
});

/** Starts the server on 127.0.0.1 with a free port. */
export function startVectorRestServer(
  options: { token?: string; dimension?: number } = {},
): VectorRestServer {
  const token = options.token ?? "test-vector-token";
  const index = new HybridIndex(options.dimension);
  const requests: RecordedRequest[] = [];
  let failure: Required<FailureOptions> | undefined;

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        return errorResponse(400, "Request body is not valid JSON");
      }
      requests.push({
        method: request.method,
        path: url.pathname + url.search,
        body,
      });
      if (request.headers.get("authorization") !== `Bearer ${token}`) {
        return errorResponse(401, "Unauthorized: invalid or missing token");
      }
      if (failure && failure.times > 0) {
        failure.times--;
        const { status, error, delayMs } = failure;
        if (delayMs > 0) await new Promise((wake) => setTimeout(wake, delayMs));
        return errorResponse(status, error);
      }
      try {
        return Response.json({ result: index.handle(url, body) });
      } catch (error) {
        if (error instanceof RestError) {
          return errorResponse(error.status, error.message);
        }
        throw error;
      }
    },
  );

  let closed: Promise<void> | undefined;
  const close = () => closed ??= server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    requests,
    failNext: ({ status = 500, error = "Internal server error", times = 1, delayMs = 0 } = {}) => {
      failure = { status, error, times, delayMs };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function errorResponse(status: number, error: string): Response {
  return Response.json({ error, status }, { status });
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new RestError(400, z.prettifyError(parsed.error));
  }
  return parsed.data;
}

/** The index state and one method per REST command. */
class HybridIndex {
  readonly #namespaces = new Map<string, Namespace>([["", new Map()]]);
  #dimension: number | undefined;

  constructor(dimension: number | undefined) {
    this.#dimension = dimension;
  }

  handle(url: URL, body: unknown): unknown {
    const [command = "", ...rest] = url.pathname.slice(1).split("/");
    if (rest.length > 1) throw new RestError(404, `Unknown path ${url.pathname}`);
    const namespace = decodeURIComponent(rest[0] ?? "");
    switch (command) {
      case "upsert":
        return this.upsert(namespace, body);
      case "query":
        return this.query(namespace, body);
      case "delete":
        return this.delete(namespace, body);
      case "fetch":
        return this.fetch(namespace, body);
      case "range":
        return this.range(namespace, body);
      case "info":
        return this.info();
      case "reset":
        return this.reset(namespace, url.search === "?all");
      case "list-namespaces":
        return [...this.#namespaces.keys()];
      case "delete-namespace":
        return this.deleteNamespace(namespace);
      case "upsert-data":
      case "query-data":
        throw new RestError(
          400,
          "Embedding data is not allowed: the index has no embedding model",
        );
      default:
        throw new RestError(404, `Unknown command ${command}`);
    }
  }

  upsert(namespace: string, body: unknown): string {
    const items = parseBody(
      z.union([upsertItemSchema, z.array(upsertItemSchema)]),
      body,
    );
    const vectors = (Array.isArray(items) ? items : [items]).map((item) => {
      // A hybrid index needs both halves on every vector.
      if (!item.vector || !item.sparseVector) {
        throw new RestError(
          400,
          "Both dense vector and sparse vector must be provided for a hybrid index",
        );
      }
      this.#checkDimension(item.vector);
      return {
        id: String(item.id),
        vector: item.vector,
        sparseVector: item.sparseVector,
        ...(item.metadata === undefined ? {} : { metadata: item.metadata }),
        ...(item.data === undefined ? {} : { data: item.data }),
      };
    });
    const stored = this.#namespace(namespace, { create: true });
    for (const vector of vectors) stored.set(vector.id, vector);
    return "Success";
  }

  query(namespace: string, body: unknown): unknown {
    const parsed = parseBody(
      z.union([queryItemSchema, z.array(queryItemSchema)]),
      body,
    );
    const stored = this.#namespace(namespace);
    if (Array.isArray(parsed)) {
      return parsed.map((item) => this.#queryOne(stored, item));
    }
    return this.#queryOne(stored, parsed);
  }

  delete(namespace: string, body: unknown): { deleted: number } {
    const selector = parseBody(deleteSchema, body);
    const stored = this.#namespace(namespace);
    let doomed: string[];
    if ("ids" in selector) doomed = selector.ids.map(String);
    else if ("prefix" in selector) {
      doomed = [...stored.keys()].filter((id) => id.startsWith(selector.prefix));
    } else {
      const matches = parseUpstashFilter(selector.filter);
      doomed = [...stored.values()]
        .filter((vector) => matches(vector.metadata ?? {}))
        .map((vector) => vector.id);
    }
    let deleted = 0;
    for (const id of doomed) if (stored.delete(id)) deleted++;
    return { deleted };
  }

  fetch(namespace: string, body: unknown): unknown[] {
    const request = parseBody(fetchSchema, body);
    const stored = this.#namespace(namespace);
    if (request.ids) {
      return request.ids.map((id) => {
        const vector = stored.get(String(id));
        return vector ? present(vector, request) : null;
      });
    }
    const prefix = request.prefix ?? "";
    return [...stored.values()]
      .filter((vector) => vector.id.startsWith(prefix))
      .map((vector) => present(vector, request));
  }

  range(namespace: string, body: unknown): unknown {
    const request = parseBody(rangeSchema, body);
    const prefix = request.prefix ?? "";
    const ids = [...this.#namespace(namespace).keys()]
      .filter((id) => id.startsWith(prefix))
      .sort();
    const start = Number(request.cursor || 0);
    if (!Number.isInteger(start) || start < 0) {
      throw new RestError(400, `Invalid cursor ${request.cursor}`);
    }
    const page = ids.slice(start, start + request.limit);
    const next = start + page.length;
    const stored = this.#namespace(namespace);
    return {
      nextCursor: next < ids.length ? String(next) : "",
      vectors: page.flatMap((id) => {
        const vector = stored.get(id);
        return vector ? [present(vector, request)] : [];
      }),
    };
  }

  info(): unknown {
    const namespaces: Record<string, unknown> = {};
    let total = 0;
    for (const [name, stored] of this.#namespaces) {
      namespaces[name] = { vectorCount: stored.size, pendingVectorCount: 0 };
      total += stored.size;
    }
    const dimension = this.#dimension ?? 0;
    return {
      vectorCount: total,
      pendingVectorCount: 0,
      indexSize: 0,
      dimension,
      similarityFunction: "COSINE",
      indexType: "HYBRID",
      denseIndex: { dimension, similarityFunction: "COSINE" },
      sparseIndex: {},
      namespaces,
    };
  }

  reset(namespace: string, all: boolean): string {
    if (all) {
      this.#namespaces.clear();
      this.#namespaces.set("", new Map());
    } else {
      this.#namespaces.get(namespace)?.clear();
    }
    return "Success";
  }

  deleteNamespace(namespace: string): string {
    if (namespace === "") {
      throw new RestError(400, "The default namespace cannot be deleted");
    }
    if (!this.#namespaces.delete(namespace)) {
      throw new RestError(404, `Namespace ${namespace} does not exist`);
    }
    return "Success";
  }

  #namespace(name: string, options: { create?: boolean } = {}): Namespace {
    let stored = this.#namespaces.get(name);
    if (!stored) {
      stored = new Map();
      // Upstash creates a namespace on first write; reads see it as empty.
      if (options.create) this.#namespaces.set(name, stored);
    }
    return stored;
  }

  #checkDimension(vector: number[]): void {
    this.#dimension ??= vector.length;
    if (vector.length !== this.#dimension) {
      throw new RestError(
        400,
        `Invalid vector dimension: ${vector.length}, expected: ${this.#dimension}`,
      );
    }
  }

  #queryOne(stored: Namespace, item: QueryItem): unknown[] {
    if (!item.vector && !item.sparseVector) {
      throw new RestError(400, "Either vector or sparseVector must be given");
    }
    if (item.fusionAlgorithm === "DBSF") {
      throw new RestError(400, "This local server only implements RRF fusion");
    }
    if (item.vector) this.#checkDimension(item.vector);
    const matches = parseUpstashFilter(item.filter);
    const candidates = [...stored.values()].filter((vector) => matches(vector.metadata ?? {}));
    const dense = item.vector ? rankDense(candidates, item.vector).slice(0, item.topK) : undefined;
    const sparse = item.sparseVector
      ? rankSparse(candidates, stored, item.sparseVector, item.weightingStrategy)
        .slice(0, item.topK)
      : undefined;
    const ranked = dense && sparse
      ? fuseByReciprocalRank(dense, sparse).slice(0, item.topK)
      : dense ?? sparse ?? [];
    return ranked.map(({ vector, score }) => ({
      ...present(vector, item),
      score,
    }));
  }
}

type Scored = { vector: StoredVector; score: number };

function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || (a.vector.id < b.vector.id ? -1 : 1);
}

/** Upstash normalizes cosine similarity to (1 + cos) / 2, in [0, 1]. */
function rankDense(candidates: StoredVector[], query: number[]): Scored[] {
  return candidates
    .map((vector) => ({
      vector,
      score: (1 + cosine(vector.vector, query)) / 2,
    }))
    .sort(byScore);
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  a.forEach((value, i) => {
    const other = b[i] ?? 0;
    dot += value * other;
    normA += value * value;
    normB += other * other;
  });
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * Dot product over shared dimensions; with IDF, each query dimension is
 * weighted by BM25's idf over the whole namespace. Only vectors sharing a
 * dimension with the query are results, as in a sparse index.
 */
function rankSparse(
  candidates: StoredVector[],
  namespace: Namespace,
  query: SparseVector,
  weighting: "IDF" | undefined,
): Scored[] {
  const weights = new Map<number, number>();
  query.indices.forEach((dimension, i) => {
    weights.set(dimension, query.values[i] ?? 0);
  });
  if (weighting === "IDF") {
    const total = namespace.size;
    for (const [dimension, weight] of weights) {
      let holding = 0;
      for (const vector of namespace.values()) {
        if (vector.sparseVector.indices.includes(dimension)) holding++;
      }
      const idf = Math.log((total - holding + 0.5) / (holding + 0.5) + 1);
      weights.set(dimension, weight * idf);
    }
  }
  const scored: Scored[] = [];
  for (const vector of candidates) {
    let score = 0;
    let shared = false;
    vector.sparseVector.indices.forEach((dimension, i) => {
      const weight = weights.get(dimension);
      if (weight === undefined) return;
      shared = true;
      score += weight * (vector.sparseVector.values[i] ?? 0);
    });
    if (shared) scored.push({ vector, score });
  }
  return scored.sort(byScore);
}

function fuseByReciprocalRank(...rankings: Scored[][]): Scored[] {
  const fused = new Map<string, Scored>();
  for (const ranking of rankings) {
    ranking.forEach(({ vector }, position) => {
      const entry = fused.get(vector.id) ?? { vector, score: 0 };
      entry.score += 1 / (RRF_K + position + 1);
      fused.set(vector.id, entry);
    });
  }
  return [...fused.values()].sort(byScore);
}

/** A stored vector as a reply shows it, honouring the include flags. */
function present(
  vector: StoredVector,
  flags: {
    includeMetadata: boolean;
    includeVectors: boolean;
    includeData: boolean;
  },
): Record<string, unknown> {
  return {
    id: vector.id,
    ...(flags.includeVectors ? { vector: vector.vector, sparseVector: vector.sparseVector } : {}),
    ...(flags.includeMetadata && vector.metadata ? { metadata: vector.metadata } : {}),
    ...(flags.includeData && vector.data !== undefined ? { data: vector.data } : {}),
  };
}

// ---------------------------------------------------------------------------
// Filter language: the SQL-like subset sift emits, parsed, never evaluated as
// code. Grammar:
//   expr       := conjunction ("OR" conjunction)*
//   conjunction:= term ("AND" term)*
//   term       := "(" expr ")" | field op literal | field ["NOT"] "IN" "(" literals ")"
// Field paths may be dotted (`a.b`). Range operators compare numbers, and
// strings lexicographically; Upstash documents them for numbers only.
// ---------------------------------------------------------------------------

type Token =
  | { kind: "word"; text: string }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "symbol"; text: string };

type Predicate = (metadata: Metadata) => boolean;

const TOKEN_PATTERN =
  /\s*(?:(?<symbol>!=|<=|>=|=|<|>|\(|\)|,)|(?<quoted>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<number>-?\d+(?:\.\d+)?)|(?<word>[A-Za-z_][A-Za-z0-9_.]*))/y;

function tokenizeFilter(filter: string): Token[] {
  const tokens: Token[] = [];
  TOKEN_PATTERN.lastIndex = 0;
  while (TOKEN_PATTERN.lastIndex < filter.length) {
    if (filter.slice(TOKEN_PATTERN.lastIndex).trim() === "") break;
    const at = TOKEN_PATTERN.lastIndex;
    const match = TOKEN_PATTERN.exec(filter);
    const groups = match?.groups;
    if (!groups) {
      throw new RestError(400, `Invalid filter at position ${at}: ${filter}`);
    }
    if (groups.symbol) tokens.push({ kind: "symbol", text: groups.symbol });
    else if (groups.quoted) {
      const inner = groups.quoted.slice(1, -1).replace(/\\(.)/g, "$1");
      tokens.push({ kind: "literal", value: inner });
    } else if (groups.number) {
      tokens.push({ kind: "literal", value: Number(groups.number) });
    } else if (groups.word) {
      const lower = groups.word.toLowerCase();
      tokens.push(
        lower === "true" || lower === "false"
          ? { kind: "literal", value: lower === "true" }
          : { kind: "word", text: groups.word },
      );
    }
  }
  return tokens;
}

/** A predicate over metadata; the empty filter matches everything. */
export function parseUpstashFilter(filter: string): Predicate {
  const tokens = tokenizeFilter(filter);
  if (tokens.length === 0) return () => true;
  let position = 0;
  const fail = (expected: string): never => {
    throw new RestError(
      400,
      `Invalid filter: expected ${expected} at token ${position}: ${filter}`,
    );
  };
  const peekKeyword = (keyword: string) => {
    const token = tokens[position];
    return token?.kind === "word" && token.text.toUpperCase() === keyword;
  };
  const peekSymbol = (symbol: string) => {
    const token = tokens[position];
    return token?.kind === "symbol" && token.text === symbol;
  };
  const expectSymbol = (symbol: string) => {
    if (!peekSymbol(symbol)) fail(`"${symbol}"`);
    position++;
  };
  const literal = (): string | number | boolean => {
    const token = tokens[position];
    if (token?.kind !== "literal") return fail("a literal");
    position++;
    return token.value;
  };

  const expression = (): Predicate => {
    const alternatives = [conjunction()];
    while (peekKeyword("OR")) {
      position++;
      alternatives.push(conjunction());
    }
    return (metadata) => alternatives.some((matches) => matches(metadata));
  };
  const conjunction = (): Predicate => {
    const terms = [term()];
    while (peekKeyword("AND")) {
      position++;
      terms.push(term());
    }
    return (metadata) => terms.every((matches) => matches(metadata));
  };
  const term = (): Predicate => {
    if (peekSymbol("(")) {
      position++;
      const inner = expression();
      expectSymbol(")");
      return inner;
    }
    const field = tokens[position];
    if (field?.kind !== "word") return fail("a field name");
    position++;
    const path = field.text.split(".");
    const negated = peekKeyword("NOT");
    if (negated) position++;
    if (peekKeyword("IN")) {
      position++;
      expectSymbol("(");
      const values = [literal()];
      while (peekSymbol(",")) {
        position++;
        values.push(literal());
      }
      expectSymbol(")");
      return (metadata) => {
        const value = lookup(metadata, path);
        if (value === undefined) return false;
        return values.some((candidate) => candidate === value) !== negated;
      };
    }
    if (negated) return fail("IN after NOT");
    const operator = tokens[position];
    if (operator?.kind !== "symbol") return fail("a comparison operator");
    position++;
    const operand = literal();
    return (metadata) => compare(lookup(metadata, path), operator.text, operand);
  };

  const predicate = expression();
  if (position !== tokens.length) fail("end of filter");
  return predicate;
}

function lookup(metadata: Metadata, path: string[]): unknown {
  let value: unknown = metadata;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function compare(
  value: unknown,
  operator: string,
  operand: string | number | boolean,
): boolean {
  if (value === undefined) return false;
  if (operator === "=") return value === operand;
  if (operator === "!=") return value !== operand;
  if (typeof value === "number" && typeof operand === "number") {
    return ordered(value, operator, operand);
  }
  if (typeof value === "string" && typeof operand === "string") {
    return ordered(value, operator, operand);
  }
  return false;
}

function ordered<T extends string | number>(
  left: T,
  operator: string,
  right: T,
): boolean {
  switch (operator) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    default:
      throw new RestError(400, `Unknown filter operator ${operator}`);
  }
}
