import { type BulkPiece, readBulkPiece } from "./bulk.ts";
import { IndexDamagedError, IndexInputError, IndexUnreadableError } from "./errors.ts";
import type { IndexLog, RecoveredTail } from "./log.ts";
import { NamespaceIndex } from "./namespace.ts";
import { normalized, prepareChunk, type PreparedChunk } from "./prepared.ts";
import type { IndexRecord } from "./record.ts";
import { reciprocalRankFusion } from "./rrf.ts";
import type {
  ChunkMetadata,
  IndexedChunk,
  MetadataFilter,
  SearchHit,
  SearchMode,
  StoredChunk,
} from "./types.ts";

/** One search: its text (sparse), its vector (dense; required for dense and hybrid), how many. */
export type IndexQuery = {
  namespace: string;
  mode: SearchMode;
  text: string;
  /**
   * The query's vector, or a promise of it while it is computed (an
   * embeddings call): a hybrid search then runs BM25 meanwhile. A promise
   * that rejects fails the query with its reason.
   */
  vector?: number[] | Promise<number[]> | undefined;
  topK: number;
  filter?: MetadataFilter | undefined;
};

/**
 * Fusion needs more than topK from each side: a chunk ranked 30th by both can
 * beat one ranked 1st by only one of them. Past the top k, fusion takes the
 * dense side by rank alone, so only its top k are refined to exact order
 * (`NamespaceIndex.dense`'s `exact`): on ARAGOG's 107 questions, at 116k and
 * at 1M chunks, every hybrid top 10 came out the same as with all 50 exact.
 */
function fusionCandidates(query: IndexQuery): number {
  return query.mode === "hybrid" ? Math.max(query.topK * 5, 50) : query.topK;
}

function queryVector(vector: number[] | undefined): Float32Array {
  if (!vector) throw new IndexInputError("vector: required for dense and hybrid search");
  return normalized(vector);
}

/** One document of a listing: its id, its first chunk's metadata and its chunk count. */
export type IndexedDocument = { id: string; metadata: ChunkMetadata | undefined; chunks: number };

/**
 * The latest cut nobody has acknowledged, and the ones before it (`earlier`,
 * oldest first) when a later start cut again.
 */
export type RecoveredTails = RecoveredTail & { earlier?: RecoveredTail[] };

/** Whether the embedded index serves yet, and what its loads cut from a log's end. */
export type IndexStatus =
  | { status: "loading" | "failed" }
  | { status: "ok"; recovered?: RecoveredTails; warming?: true };

/** By default no checkpoint before the log since the last one reaches this. */
const CHECKPOINT_MIN_BYTES = 32 * 1024 * 1024;
/**
 * A checkpoint is due once the log outgrows this share of the last one. A
 * fixed share keeps writes linear (each checkpoint is at most 1.25× the one
 * before it, so all of them add up to five times the index) and bounds what a
 * restart after a crash replays: at 100k chunks, replaying a tail as big as
 * the checkpoint took 5.0 s; a quarter of it keeps a crash restart near 3 s.
 */
const CHECKPOINT_TAIL_SHARE = 0.25;
/** A bulk build grows a posting by half again when a piece overflows it: linear over all pieces. */
const BULK_SPARE = 1.5;

/**
 * The embedded vector index: dense cosine over sparse postings, BM25, and
 * reciprocal rank fusion of both for hybrid. With an `IndexLog`, every change
 * is one appended record, durable before it is applied or acknowledged, so a
 * write costs what it writes and a crash loses nothing acknowledged. Now and
 * then the live index is checkpointed as flat arrays, so the disk holds what
 * the index holds and a restart maps arrays instead of replaying history.
 */
export class EmbeddedIndex {
  readonly #namespaces = new Map<string, NamespaceIndex>();
  readonly #log: IndexLog | undefined;
  #loaded: Promise<void> | undefined;
  /** Set once the load settles: until then the index does not serve. */
  #loadSettled: "ok" | "failed" | undefined;
  /** Damage a checksum found after the load. */
  #damage: unknown;
  /** Sections the load still reads in after the index serves: writes wait for them. */
  #background: Promise<void> | undefined;
  /** Until `#background` settles (`status().warming`). */
  #warming = false;
  #writing: Promise<void> = Promise.resolve();
  readonly #checkpointMinBytes: number;
  #checkpointing: Promise<void> | undefined;
  /** Gives up the checkpoint under way (`flush` writes one of everything instead). */
  #giveUp: AbortController | undefined;

  constructor(options: { log?: IndexLog; checkpointMinBytes?: number } = {}) {
    this.#log = options.log;
    this.#checkpointMinBytes = options.checkpointMinBytes ?? CHECKPOINT_MIN_BYTES;
  }

  /**
   * Starts loading the log now (a server calls this at start, so the load
   * overlaps the rest of its start-up); calls made meanwhile wait for it.
   */
  open(): Promise<void> {
    return this.#load();
  }

  /**
   * `loading` until the index serves; `failed` when its load failed (every
   * call says why, as before); `recovered`: the records loads cut from the
   * log's end, until `acknowledgeRecovered()`; `warming` while the load still
   * reads sections in behind the first searches (writes wait for it).
   */
  status(): IndexStatus {
    if (!this.#log) return { status: "ok" }; // nothing to load
    if (!this.#loadSettled) {
      this.#load().catch(() => {}); // started if no call has yet; its failure is theirs to tell
      return { status: "loading" };
    }
    if (this.#loadSettled === "failed" || this.#damage) return { status: "failed" };
    const cuts = this.#log?.recovered ?? [];
    const latest = cuts.at(-1);
    const recovered = latest &&
      { ...latest, ...(cuts.length > 1 ? { earlier: cuts.slice(0, -1) } : {}) };
    return {
      status: "ok",
      ...(recovered ? { recovered } : {}),
      ...(this.#warming ? { warming: true as const } : {}),
    };
  }

  /**
   * An operator has seen `status().recovered`: it is forgotten, on disk too,
   * so no restart raises it again. Resolves to the cuts it held (none if none).
   */
  async acknowledgeRecovered(): Promise<readonly RecoveredTail[]> {
    await this.#ready();
    return await this.#log?.acknowledgeRecovered?.() ?? [];
  }

  async upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void> {
    await this.replaceDocuments([], chunks, options);
  }

  /** Each of `docIds` ends with exactly its chunks in `chunks`, in one durable record. */
  async replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    await this.#complete();
    const put = chunks.map(prepareChunk);
    this.#checkDimensions(options.namespace, put.map((chunk) => chunk.dimensions));
    await this.#commit({ namespace: options.namespace, remove: docIds, put });
  }

  /**
   * A bulk build: each piece (one encoded record from `prepareBulkPiece`,
   * made in workers) is appended to the log with one fsync, then applied in
   * one `putMany` (postings grown with room to spare, so a million chunks in
   * pieces cost about what one build does), with no checkpoint in between;
   * one checkpoint at the end. `onDurable` hears of each piece once it is
   * durable and visible. A crash leaves the index as it was plus a prefix of
   * the pieces, every one reported among them (a torn last one is cut).
   */
  async bulkUpsert(
    pieces: AsyncIterable<BulkPiece> | Iterable<BulkPiece>,
    options: { onDurable?: (piece: { chunks: number; namespace: string }) => void } = {},
  ): Promise<{ chunks: number }> {
    await this.#complete();
    let chunks = 0;
    for await (const piece of pieces) {
      const record = readBulkPiece(piece);
      this.#checkDimensions(record.namespace, record.put.map((chunk) => chunk.dimensions));
      const work = this.#writing.catch(() => {}).then(async () => {
        const log = this.#log;
        if (log?.appendEncoded) await log.appendEncoded(piece.frame);
        else await log?.append(record);
        const namespace = this.#namespaces.get(record.namespace);
        if (namespace) {
          for (const docId of record.remove) namespace.removeDocument(docId);
          namespace.putMany(record.put, { spare: BULK_SPARE });
        } else this.#namespaces.set(record.namespace, NamespaceIndex.build(record.put));
      });
      this.#writing = work;
      await work;
      chunks += record.put.length;
      options.onDurable?.({ chunks: record.put.length, namespace: record.namespace });
    }
    await this.flush();
    return { chunks };
  }

  async deleteDocument(docId: string, options: { namespace: string }): Promise<number> {
    await this.#complete();
    const namespace = this.#namespaces.get(options.namespace);
    const before = namespace?.size ?? 0;
    if (!namespace || !namespace.hasDocument(docId)) return 0;
    await this.#commit({ namespace: options.namespace, remove: [docId], put: [] });
    return before - namespace.size;
  }

  /**
   * Checkpoints whatever the log holds since the last checkpoint (at
   * shutdown: the next start then maps arrays and replays nothing).
   */
  async flush(): Promise<void> {
    if (!this.#loaded) return;
    await this.#ready();
    // Nothing since the last checkpoint: a stop right after a start need not wait for its load.
    if (!this.#log?.tailBytes && !this.#checkpointing) return;
    await this.#complete();
    const work = this.#writing.catch(() => {}).then(async () => {
      // One checkpoint of everything, not the rest of one begun earlier and then another: a
      // stop that waited for both held its directory for twice as long. The one given up
      // removes its file; the records it would have covered stay in the logs.
      this.#giveUp?.abort();
      await this.#checkpointing;
      this.#checkpoint(1);
      await this.#checkpointing;
    });
    this.#writing = work;
    await work;
  }

  async count(options: { namespace: string }): Promise<number> {
    await this.#ready();
    return this.#namespaces.get(options.namespace)?.size ?? 0;
  }

  /**
   * Up to `limit` documents in id order, after the id `after` if given;
   * `more` says whether any follow.
   */
  async listDocuments(
    options: { namespace: string; limit: number; after?: string | undefined },
  ): Promise<{ documents: IndexedDocument[]; more: boolean }> {
    await this.#complete();
    const { after } = options;
    const namespace = this.#namespaces.get(options.namespace);
    if (!namespace) return { documents: [], more: false };
    const ids = [...namespace.documentIds()]
      .filter((id) => after === undefined || id > after)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const page = ids.slice(0, options.limit);
    const documents = page.map((id) => ({
      id,
      metadata: namespace.documentMetadata(id),
      chunks: namespace.documentSize(id),
    }));
    return { documents, more: ids.length > page.length };
  }

  async getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]> {
    await this.#complete();
    return this.#namespaces.get(options.namespace)?.documentChunks(docId) ?? [];
  }

  async query(query: IndexQuery): Promise<SearchHit[]> {
    const pending = query.vector instanceof Promise ? query.vector : undefined;
    // Handled here too: a query that fails first (an index that failed to load, a bad filter)
    // leaves its vector's rejection to nobody, and an unhandled one would end the process.
    pending?.catch(() => {});
    await this.#ready();
    if (pending && query.mode === "hybrid" && query.topK > 0) {
      return this.#hybridMeanwhile(query, pending);
    }
    const vector = pending ? await pending : query.vector as number[] | undefined;
    const namespace = this.#namespaces.get(query.namespace);
    if (!namespace || query.topK <= 0) return [];
    const candidates = fusionCandidates(query);
    // Both sides are synchronous CPU work on this thread. Where a helper thread
    // can count the dense side's bit codes (large namespaces, Deno), the sparse
    // side runs here meanwhile (`NamespaceIndex.dense`'s `meanwhile`).
    let dense: { id: string; score: number }[] = [];
    let sparse: { id: string; score: number }[] = [];
    const sparseSide = () => {
      sparse = namespace.sparse(query.text, candidates, query.filter);
    };
    if (query.mode !== "sparse") {
      dense = namespace.dense(
        queryVector(vector),
        candidates,
        query.filter,
        query.mode === "hybrid" ? sparseSide : undefined,
        query.topK,
      );
    } else sparseSide();
    return this.#hits(namespace, query, dense, sparse);
  }

  /**
   * A hybrid search whose vector is still on its way (the query's embeddings
   * call): BM25 runs now, the dense side once the vector comes. Changes
   * applied meanwhile can remove chunks BM25 found: those are left out.
   */
  async #hybridMeanwhile(query: IndexQuery, pending: Promise<number[]>): Promise<SearchHit[]> {
    const candidates = fusionCandidates(query);
    const before = this.#namespaces.get(query.namespace);
    const sparse = before?.sparse(query.text, candidates, query.filter) ?? [];
    const vector = queryVector(await pending);
    const namespace = this.#namespaces.get(query.namespace);
    if (!namespace) return [];
    const dense = namespace.dense(vector, candidates, query.filter, undefined, query.topK);
    const present = sparse.filter((hit) => namespace.has(hit.id));
    return this.#hits(namespace, query, dense, present);
  }

  /** The ranking a query's mode asks for, top k, with each chunk's text and metadata. */
  #hits(
    namespace: NamespaceIndex,
    query: IndexQuery,
    dense: { id: string; score: number }[],
    sparse: { id: string; score: number }[],
  ): SearchHit[] {
    const ranked = query.mode === "dense"
      ? dense
      : query.mode === "sparse"
      ? sparse
      : reciprocalRankFusion([dense.map((hit) => hit.id), sparse.map((hit) => hit.id)])
        .map((item) => ({ id: item.id, score: item.rrf_score }));
    return ranked.slice(0, query.topK).map(({ id, score }) => {
      const { text, metadata } = namespace.hit(id);
      return { id, doc_id: metadata.doc_id, text, score, metadata };
    });
  }

  #checkDimensions(name: string, dimensions: number[]): void {
    const held = this.#namespaces.get(name)?.dimensions;
    const expected = held ?? dimensions[0];
    const other = dimensions.find((width) => width !== expected);
    if (other !== undefined) {
      throw new IndexInputError(
        `The index holds ${expected}-dimensional vectors but a chunk has ${other}: ` +
          "re-ingest everything after changing the embedding model",
      );
    }
  }

  /** Durable first, then applied: a change nobody was told about is never visible. */
  #commit(record: IndexRecord): Promise<void> {
    const work = this.#writing.catch(() => {}).then(async () => {
      await this.#log?.append(record);
      this.#apply(record);
      this.#checkpointIfDue();
    });
    this.#writing = work;
    return work;
  }

  #apply(record: IndexRecord): void {
    let namespace = this.#namespaces.get(record.namespace);
    if (!namespace) this.#namespaces.set(record.namespace, namespace = new NamespaceIndex());
    for (const docId of record.remove) namespace.removeDocument(docId);
    for (const chunk of record.put) namespace.put(chunk);
  }

  /**
   * Once the records since the last checkpoint outweigh a quarter of it (and 32 MiB), the
   * live index becomes the new checkpoint: loading stays one read of flat
   * arrays plus a short tail, and superseded chunks leave the disk.
   */
  #checkpointIfDue(): void {
    const share = CHECKPOINT_TAIL_SHARE * (this.#log?.checkpointBytes ?? 0);
    this.#checkpoint(Math.max(this.#checkpointMinBytes, share));
  }

  /**
   * Starts a checkpoint of the state right now (called between commits, so
   * the snapshot matches the log exactly); its file is written while later
   * commits carry on. One at a time; a failed one is only logged, because the
   * log still holds everything.
   */
  #checkpoint(atTailBytes: number): void {
    const log = this.#log;
    if (!log || this.#checkpointing || log.tailBytes < atTailBytes) return;
    const snapshots = new Map(
      [...this.#namespaces].map(([name, namespace]) => [name, namespace.view()]),
    );
    const giveUp = this.#giveUp = new AbortController();
    this.#checkpointing = log.checkpoint(snapshots, { signal: giveUp.signal })
      .catch((error) => {
        if (giveUp.signal.aborted) return; // given up on purpose: a newer one follows
        console.error("index checkpoint failed; the log still holds it all:", error);
      })
      .finally(() => {
        this.#checkpointing = undefined;
        if (this.#giveUp === giveUp) this.#giveUp = undefined;
      });
  }

  /** Loaded, and no damage found since (a background checksum's finding fails every call). */
  async #ready(): Promise<void> {
    await this.#load();
    if (this.#damage) throw this.#damage;
  }

  /**
   * Ready, and everything the load left to read after serving is in: a
   * write grows postings and rows, which must not happen under the loader,
   * and listings read the documents' sections.
   */
  async #complete(): Promise<void> {
    await this.#ready();
    await this.#background;
    if (this.#damage) throw this.#damage;
  }

  /** Replays the log once; a log that cannot be read fails every call, and is never overwritten. */
  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      let loaded: Awaited<ReturnType<IndexLog["load"]>>;
      try {
        loaded = await this.#log?.load() ?? { records: [] };
      } catch (error) {
        if (error instanceof IndexDamagedError) throw error;
        throw new IndexUnreadableError(this.#log?.location, { cause: error });
      }
      loaded.verified?.catch((error) => {
        console.error(error instanceof Error ? error.message : error);
        this.#damage = error;
      });
      this.#background = loaded.background;
      if (loaded.background) {
        this.#warming = true;
        loaded.background.then(() => (this.#warming = false), () => {});
      }
      if (loaded.checkpoint) {
        for (const [name, snapshot] of loaded.checkpoint) {
          this.#namespaces.set(name, NamespaceIndex.restore(snapshot));
        }
        this.#applyTail(loaded.records);
      } else {
        this.#replay(loaded.records);
      }
    })();
    this.#loaded.then(
      () => (this.#loadSettled = "ok"),
      () => (this.#loadSettled = "failed"),
    );
    return this.#loaded;
  }

  /**
   * The log's records since the checkpoint, folded first: the documents the
   * tail removes come out of the checkpointed index, then the chunks the tail
   * leaves standing go in with one `putMany` per namespace.
   */
  #applyTail(records: IndexRecord[]): void {
    const tails = new Map<string, { removed: Set<string>; state: TailState }>();
    for (const record of records) {
      let tail = tails.get(record.namespace);
      if (!tail) tails.set(record.namespace, tail = { removed: new Set(), state: newTailState() });
      for (const docId of record.remove) tail.removed.add(docId);
      foldRecord(tail.state, record);
    }
    for (const [name, { removed, state }] of tails) {
      let namespace = this.#namespaces.get(name);
      if (!namespace) this.#namespaces.set(name, namespace = new NamespaceIndex());
      for (const docId of removed) namespace.removeDocument(docId);
      namespace.putMany([...state.chunks.values()]);
    }
  }

  /** The log's final state per namespace first, then each index built in one pass. */
  #replay(records: IndexRecord[]): void {
    const states = new Map<string, TailState>();
    for (const record of records) {
      let state = states.get(record.namespace);
      if (!state) states.set(record.namespace, state = newTailState());
      foldRecord(state, record);
    }
    for (const [name, state] of states) {
      this.#namespaces.set(name, NamespaceIndex.build([...state.chunks.values()]));
    }
  }
}

/** What a run of log records leaves standing in one namespace: chunks by id, ids by document. */
type TailState = { chunks: Map<string, PreparedChunk>; ofDocument: Map<string, Set<string>> };

const newTailState = (): TailState => ({ chunks: new Map(), ofDocument: new Map() });

function foldRecord({ chunks, ofDocument }: TailState, record: IndexRecord): void {
  for (const docId of record.remove) {
    for (const id of ofDocument.get(docId) ?? []) chunks.delete(id);
    ofDocument.delete(docId);
  }
  for (const chunk of record.put) {
    const previous = chunks.get(chunk.id);
    if (previous) ofDocument.get(previous.metadata.doc_id)?.delete(chunk.id);
    chunks.set(chunk.id, chunk);
    let ids = ofDocument.get(chunk.metadata.doc_id);
    if (!ids) ofDocument.set(chunk.metadata.doc_id, ids = new Set());
    ids.add(chunk.id);
  }
}
