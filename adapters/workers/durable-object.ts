/**
 * The few parts of the Workers Durable Object API that sift uses, typed
 * structurally. Importing "cloudflare:workers" or @cloudflare/workers-types
 * would make `deno check` depend on Cloudflare's types; workerd accepts a plain
 * class with `constructor(ctx, env)` and `fetch(request)` as a Durable Object.
 */

/** What SQLite columns come back as: BLOBs arrive as `ArrayBuffer`s. */
export type SqlValue = string | number | null | ArrayBuffer;

export type SqlRow = Record<string, SqlValue>;

export interface SqlCursor<T extends SqlRow> {
  toArray(): T[];
  /** The only row; throws unless there is exactly one. */
  one(): T;
  readonly rowsWritten: number;
}

export interface SqlStorage {
  exec<T extends SqlRow = SqlRow>(query: string, ...bindings: SqlValue[]): SqlCursor<T>;
}

export interface DurableObjectStorage {
  readonly sql: SqlStorage;
  /** Runs `fn` in one SQLite transaction: if it throws, nothing it wrote stays. */
  transactionSync<T>(fn: () => T): T;
}

export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
  /** Holds every incoming event until `fn` settles; the constructor's set-up uses it. */
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

export interface DurableObjectId {
  toString(): string;
}

export interface DurableObjectStub {
  fetch(request: Request): Promise<Response>;
}

/** The binding a Worker sees for `[[durable_objects.bindings]]`. */
export interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}
