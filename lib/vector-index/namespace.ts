import { IndexInputError } from "./errors.ts";
import { matchesFilter } from "./filter.ts";
import { analyze } from "./analyze.ts";
import type { ChunkMetadata, MetadataFilter } from "./types.ts";
import {
  dimensionPostings,
  flattenPostings,
  float32,
  Postings,
  termPostings,
  uint16,
} from "./postings.ts";
import { DenseVectors } from "./dense-vectors.ts";
import { denseValues, type PreparedChunk, sparseEntries } from "./prepared.ts";
import { TextColumn } from "./text-column.ts";
import { SlotKeys } from "./slot-keys.ts";
import type { NamespaceSnapshot, NamespaceView } from "./snapshot.ts";
import type { Scored } from "./top-k.ts";
import { Bm25Scorer } from "./bm25-scorer.ts";
import { PostingsDot } from "./postings-dot.ts";
import type { StoredPostings } from "./stored-postings.ts";
import { SlotTopK } from "./slot-top-k.ts";

/** Dead slots are dropped (the postings rebuilt) once they outnumber the live ones. */
const REBUILD_MIN_DEAD = 256;

/**
 * One namespace of the embedded index. Every chunk gets a slot; per slot the
 * id and metadata sit in `SlotKeys` (with the id → slot and document → slots
 * lookups), the text in a `TextColumn`, and the rest in typed arrays:
 * BM25 postings per term (slot, count), and the vectors in one of two
 * layouts, picked from the vectors themselves when the namespace gets its
 * first chunk. Sparse vectors (the hashed embedding's) go in postings per
 * dimension (slot, value): a query touches only the postings of its nonzero
 * dimensions, a few thousand entries. Dense vectors (a real model's) go in
 * `DenseVectors`: int8 rows and bit codes, where postings would cost 8 bytes
 * per dimension and a full scan. Removal marks the slot dead.
 */
export class NamespaceIndex {
  /** Ids, metadata, and which slot holds an id and which slots a document. */
  #keys = new SlotKeys();
  #texts = new TextColumn();
  #alive = new Uint8Array(64);
  #lengths = new Uint32Array(64);
  #terms = new Map<string, Postings<Uint16Array>>();
  #dims: Postings<Float32Array>[] = [];
  /** The dense layout's vectors; undefined in the postings layout. */
  #vectors: DenseVectors | undefined;
  #dimensions: number | undefined;
  #live = 0;
  #dead = 0;
  #totalLength = 0;
  /**
   * A loaded checkpoint's term postings while the load still reads them in
   * (each term's number in it): a search reads its terms' entries first.
   * Writes wait for the load, so no posting grows meanwhile.
   */
  #storedPostings:
    | { stored: StoredPostings; numbers: Map<Postings<Uint16Array>, number> }
    | undefined;
  /** The same for the dimension postings (numbered by dimension), in the postings layout. */
  #storedDims: StoredPostings | undefined;
  /** Query-side state (reused buffers, document frequencies): rebuilt with the postings. */
  #bm25 = new Bm25Scorer();
  #postingsDot = new PostingsDot();
  /** Ties between equal scores go to the smaller id: a stable, documented order. */
  readonly #idBefore = (a: number, b: number) => this.#keys.idBefore(a, b);

  get size(): number {
    return this.#live;
  }

  /**
   * An index of `chunks` (distinct ids, one width) built in two passes: count
   * each posting, then fill it at its final size. Several times faster than
   * `put` one by one, which is what loading a log needs.
   */
  static build(chunks: readonly PreparedChunk[]): NamespaceIndex {
    const index = new NamespaceIndex();
    if (chunks.length === 0) return index;
    index.#growSlots(chunks.length);
    const dimensions = chunks[0]!.dimensions;
    // Pass 1: each term's number (so pass 2 needs no map) and every posting's size.
    const termNumbers = new Map<string, number>();
    const termSizes: number[] = [];
    const numberOf = (term: string) => {
      let number = termNumbers.get(term);
      if (number === undefined) {
        termNumbers.set(term, number = termSizes.length);
        termSizes.push(0);
      }
      return number;
    };
    // Chunks read from one log record share its term list: translate that list once.
    const translations = new Map<readonly string[], Uint32Array>();
    const chunkTerms = chunks.map((chunk) => {
      let numbers: Uint32Array;
      if (chunk.shared) {
        const { dictionary, numbers: local } = chunk.shared;
        let table = translations.get(dictionary);
        if (!table) translations.set(dictionary, table = Uint32Array.from(dictionary, numberOf));
        numbers = new Uint32Array(local.length);
        for (let i = 0; i < local.length; i++) numbers[i] = table[local[i]!]!;
      } else {
        numbers = Uint32Array.from(chunk.terms, numberOf);
      }
      for (let i = 0; i < numbers.length; i++) termSizes[numbers[i]!]!++;
      return numbers;
    });
    const vectors = chunks[0]!.dense ? new DenseVectors(dimensions, chunks.length) : undefined;
    const dimSizes = new Uint32Array(vectors ? 0 : dimensions);
    if (!vectors) {
      for (const chunk of chunks) for (const dim of sparseEntries(chunk).dims) dimSizes[dim]!++;
    }
    const termLists = termSizes.map((size) => termPostings(size));
    for (const [term, number] of termNumbers) index.#terms.set(term, termLists[number]!);
    const dimLists: Postings<Float32Array>[] = [];
    dimSizes.forEach((size, dim) => {
      if (size > 0) dimLists[dim] = dimensionPostings(size);
    });
    index.#dims = dimLists;
    index.#vectors = vectors;
    index.#dimensions = dimensions;
    // Pass 2: fill every posting at its final size.
    chunks.forEach((chunk, slot) => {
      index.#addSlot(chunk);
      const numbers = chunkTerms[slot]!;
      const { counts } = chunk;
      for (let i = 0; i < numbers.length; i++) {
        const posting = termLists[numbers[i]!]!;
        posting.slots[posting.length] = slot;
        posting.values[posting.length++] = counts[i]!;
      }
      if (vectors) {
        vectors.set(slot, denseValues(chunk));
        index.#totalLength += chunk.length;
        return;
      }
      const { dims, values } = sparseEntries(chunk);
      for (let i = 0; i < dims.length; i++) {
        const posting = dimLists[dims[i]!]!;
        posting.slots[posting.length] = slot;
        posting.values[posting.length++] = values[i]!;
      }
      index.#totalLength += chunk.length;
    });
    index.#live = chunks.length;
    return index;
  }

  /**
   * Adds chunks with distinct ids (replacing any held under those ids) in two
   * passes, as `build` does: count what each posting gains, grow it once,
   * then fill. Replaying a log's tail on top of a checkpoint needs this: one
   * `put` at a time regrows postings and cost about 60 µs a chunk at 100k.
   */
  putMany(chunks: readonly PreparedChunk[], options: { spare?: number } = {}): void {
    if (chunks.length === 0) return;
    for (const chunk of chunks) this.remove(chunk.id);
    if (this.#dimensions === undefined || this.#live === 0) this.#startLayout(chunks[0]!);
    for (const chunk of chunks) {
      if (chunk.dimensions !== this.#dimensions) {
        throw new IndexInputError(
          `The index holds ${this.#dimensions}-dimensional vectors but chunk ${chunk.id} has ` +
            `${chunk.dimensions}: re-ingest everything after changing the embedding model`,
        );
      }
    }
    // Pass 1: each chunk's term postings (a record's shared term list resolved once) and growth.
    const gains = new Map<Postings<Uint16Array> | Postings<Float32Array>, number>();
    const gain = (posting: Postings<Uint16Array> | Postings<Float32Array>) =>
      gains.set(posting, (gains.get(posting) ?? 0) + 1);
    const postingOf = (term: string) => {
      let posting = this.#terms.get(term);
      if (!posting) this.#terms.set(term, posting = termPostings(0));
      return posting;
    };
    const resolved = new Map<readonly string[], Postings<Uint16Array>[]>();
    const termLists = chunks.map((chunk) => {
      let list: Postings<Uint16Array>[];
      if (chunk.shared) {
        const { dictionary, numbers } = chunk.shared;
        let table = resolved.get(dictionary);
        if (!table) resolved.set(dictionary, table = dictionary.map(postingOf));
        list = Array.from(numbers, (number) => table![number]!);
      } else {
        list = chunk.terms.map(postingOf);
      }
      for (const posting of list) gain(posting);
      if (!this.#vectors) {
        for (const dim of sparseEntries(chunk).dims) gain(this.#dims[dim] ??= dimensionPostings(0));
      }
      return list;
    });
    // `spare` (a bulk build's pieces): a posting that overflows grows by that factor at least.
    const spare = options.spare ?? 1;
    for (const [posting, added] of gains) {
      const needed = posting.length + added;
      if (needed > posting.slots.length) {
        posting.reserve(Math.max(needed, Math.ceil(posting.slots.length * spare)));
      }
    }
    this.#growSlots(this.#keys.length + chunks.length);
    // Pass 2: fill, nothing regrows.
    chunks.forEach((chunk, i) => {
      const slot = this.#addSlot(chunk);
      const list = termLists[i]!;
      for (let t = 0; t < list.length; t++) list[t]!.push(slot, chunk.counts[t]!);
      this.#putVector(slot, chunk);
      this.#live++;
      this.#totalLength += chunk.length;
    });
  }

  /** Adds a chunk, replacing one with the same id. */
  put(chunk: PreparedChunk): void {
    if (this.#dimensions === undefined || this.#live === 0) this.#startLayout(chunk);
    else if (chunk.dimensions !== this.#dimensions) {
      throw new IndexInputError(
        `The index holds ${this.#dimensions}-dimensional vectors but chunk ${chunk.id} has ` +
          `${chunk.dimensions}: re-ingest everything after changing the embedding model`,
      );
    }
    this.remove(chunk.id);
    const slot = this.#addSlot(chunk);
    const { terms, counts } = chunk;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let posting = this.#terms.get(term);
      if (!posting) this.#terms.set(term, posting = termPostings());
      posting.push(slot, counts[i]!);
    }
    this.#putVector(slot, chunk);
    this.#live++;
    this.#totalLength += chunk.length;
  }

  /**
   * An empty namespace takes the layout its first chunk's vector calls for
   * (dead slots left from before are dropped first: they hold the old one).
   */
  #startLayout(first: PreparedChunk): void {
    if (this.#keys.length > 0) this.#rebuild();
    this.#dimensions = first.dimensions;
    this.#dims = [];
    this.#vectors = first.dense ? new DenseVectors(first.dimensions) : undefined;
  }

  /** The vector of the chunk at `slot`, in this namespace's layout. */
  #putVector(slot: number, chunk: PreparedChunk): void {
    if (this.#vectors) return this.#vectors.set(slot, denseValues(chunk));
    const { dims, values } = sparseEntries(chunk);
    for (let i = 0; i < dims.length; i++) {
      (this.#dims[dims[i]!] ??= dimensionPostings()).push(slot, values[i]!);
    }
  }

  /** The next slot, holding `chunk`'s id, text, metadata and length (its postings are the caller's). */
  #addSlot(chunk: PreparedChunk): number {
    const slot = this.#keys.length;
    if (slot === this.#alive.length) this.#growSlots(slot * 2);
    this.#keys.push(chunk.id, chunk.metadata);
    this.#texts.push(chunk.text);
    this.#alive[slot] = 1;
    this.#lengths[slot] = chunk.length;
    return slot;
  }

  remove(id: string): boolean {
    const slot = this.#keys.slotOf(id);
    if (slot === undefined) return false;
    this.#alive[slot] = 0;
    this.#bm25.removed(slot);
    this.#keys.remove(slot);
    this.#live--;
    this.#dead++;
    this.#totalLength -= this.#lengths[slot]!;
    // Text and metadata of a dead slot are dropped now; its postings at the next rebuild.
    this.#texts.drop(slot);
    if (this.#dead >= REBUILD_MIN_DEAD && this.#dead > this.#live) this.#rebuild();
    return true;
  }

  /** Removes every chunk of a document; returns how many. */
  removeDocument(docId: string): number {
    // Ids, not slots: a removal can trigger a rebuild that renumbers every slot.
    const ids = this.#keys.documentSlots(docId).map((slot) => this.#keys.id(slot));
    for (const id of ids) this.remove(id);
    return ids.length;
  }

  hasDocument(docId: string): boolean {
    return this.#keys.hasDocument(docId);
  }

  /** Every document's id, in no order. */
  documentIds(): IterableIterator<string> {
    return this.#keys.documentIds();
  }

  /** A document's chunks in `chunk_index` order; empty when it has none. */
  documentChunks(docId: string): { id: string; text: string; metadata: ChunkMetadata }[] {
    return this.#keys.documentSlots(docId)
      .map((slot) => ({
        id: this.#keys.id(slot),
        text: this.#texts.get(slot),
        metadata: this.#keys.metadata(slot),
      }))
      .sort((a, b) => a.metadata.chunk_index - b.metadata.chunk_index);
  }

  /** How many chunks a document has. */
  documentSize(docId: string): number {
    return this.#keys.documentSlots(docId).length;
  }

  /** A document's first chunk's metadata (the document's own fields), if it has chunks. */
  documentMetadata(docId: string): ChunkMetadata | undefined {
    let first: ChunkMetadata | undefined;
    for (const slot of this.#keys.documentSlots(docId)) {
      const metadata = this.#keys.metadata(slot);
      if (!first || metadata.chunk_index < first.chunk_index) first = metadata;
    }
    return first;
  }

  /** The width of the vectors held; undefined while empty. */
  get dimensions(): number | undefined {
    return this.#live > 0 ? this.#dimensions : undefined;
  }

  /** Whether the chunk `id` is held. */
  has(id: string): boolean {
    return this.#keys.slotOf(id) !== undefined;
  }

  hit(id: string): { text: string; metadata: ChunkMetadata } {
    const slot = this.#keys.slotOf(id)!;
    return { text: this.#texts.get(slot), metadata: this.#keys.metadata(slot) };
  }

  /** The live slots as flat arrays, renumbered from 0 (for a checkpoint, or a rebuild). */
  snapshot(): NamespaceSnapshot {
    const slotCount = this.#keys.length;
    const renumbered = new Int32Array(slotCount).fill(-1);
    const live: number[] = [];
    const lengths = new Uint32Array(this.#live);
    for (let slot = 0; slot < slotCount; slot++) {
      if (!this.#alive[slot]) continue;
      renumbered[slot] = live.length;
      lengths[live.length] = this.#lengths[slot]!;
      live.push(slot);
    }
    const terms = [...this.#terms.keys()];
    const termPostingsFlat = flattenPostings([...this.#terms.values()], renumbered, uint16);
    const dimensions = this.#dimensions ?? 0;
    const dimPostingsFlat = flattenPostings(
      Array.from({ length: this.#vectors ? 0 : dimensions }, (_, dim) => this.#dims[dim]),
      renumbered,
      float32,
    );
    return {
      dimensions,
      keys: SlotKeys.of(
        live.map((slot) => this.#keys.id(slot)),
        live.map((slot) => this.#keys.metadata(slot)),
      ),
      texts: this.#texts.pick(live),
      lengths,
      terms,
      termOffsets: termPostingsFlat.offsets,
      termSlots: termPostingsFlat.slots,
      termCounts: termPostingsFlat.values,
      dimOffsets: dimPostingsFlat.offsets,
      dimSlots: dimPostingsFlat.slots,
      dimValues: dimPostingsFlat.values,
      ...(this.#vectors ? { vectors: this.#vectors.compact(live) } : {}),
    };
  }

  /** The namespace as it stands, by reference: what a checkpoint writes while writes go on. */
  view(): NamespaceView {
    return {
      dimensions: this.#dimensions ?? 0,
      slotCount: this.#keys.length,
      alive: this.#alive,
      keys: this.#keys,
      texts: this.#texts,
      lengths: this.#lengths,
      terms: [...this.#terms].map(([term, posting]) => ({
        term,
        slots: posting.slots,
        counts: posting.values,
        length: posting.length,
      })),
      dims: Array.from({ length: this.#vectors ? 0 : this.#dimensions ?? 0 }, (_, dim) => {
        const posting = this.#dims[dim];
        return posting &&
          { slots: posting.slots, values: posting.values, length: posting.length };
      }),
      ...(this.#vectors ? { vectors: this.#vectors.view() } : {}),
    };
  }

  /** An index over a snapshot's arrays: postings are views into them, nothing is copied. */
  static restore(snapshot: NamespaceSnapshot): NamespaceIndex {
    const index = new NamespaceIndex();
    const count = snapshot.keys.length;
    index.#keys = snapshot.keys;
    index.#texts = snapshot.texts;
    index.#growSlots(count);
    index.#alive.fill(1, 0, count);
    index.#lengths.set(snapshot.lengths);
    for (let slot = 0; slot < count; slot++) index.#totalLength += snapshot.lengths[slot]!;
    const view = <V extends Uint16Array | Float32Array>(
      offsets: Uint32Array,
      slots: Uint32Array,
      values: V,
      i: number,
      makeValues: (size: number) => V,
    ) =>
      Postings.over(
        makeValues,
        slots.subarray(offsets[i]!, offsets[i + 1]!),
        values.subarray(offsets[i]!, offsets[i + 1]!) as V,
      );
    const stored = snapshot.storedPostings;
    if (stored) index.#storedPostings = { stored, numbers: new Map() };
    index.#storedDims = snapshot.storedDims;
    snapshot.terms.forEach((term, i) => {
      const posting = view(
        snapshot.termOffsets,
        snapshot.termSlots,
        snapshot.termCounts,
        i,
        uint16,
      );
      index.#terms.set(term, posting);
      index.#storedPostings?.numbers.set(posting, i);
    });
    index.#vectors = snapshot.vectors;
    for (let dim = 0; !snapshot.vectors && dim < snapshot.dimensions; dim++) {
      if (snapshot.dimOffsets[dim + 1]! > snapshot.dimOffsets[dim]!) {
        index.#dims[dim] = view(
          snapshot.dimOffsets,
          snapshot.dimSlots,
          snapshot.dimValues,
          dim,
          float32,
        );
      }
    }
    index.#dimensions = count > 0 ? snapshot.dimensions : undefined;
    index.#live = count;
    return index;
  }

  /**
   * Dense retrieval: the best `limit` by cosine (dot product of normalized
   * vectors). `meanwhile` (a hybrid search's sparse side) runs once on this
   * thread, while a helper thread counts bit codes where it can. `exact`:
   * how many of the first need their order exact (all by default; hybrid's
   * fusion takes the rest by rank only).
   */
  dense(
    query: Float32Array,
    limit: number,
    filter?: MetadataFilter,
    meanwhile?: () => void,
    exact = limit,
  ): Scored[] {
    if (this.#live === 0 || limit <= 0) {
      meanwhile?.();
      return [];
    }
    if (query.length !== this.#dimensions) {
      throw new IndexInputError(
        `The index holds ${this.#dimensions}-dimensional vectors but the query has ${query.length}: ` +
          "re-ingest after changing the embedding model",
      );
    }
    if (this.#vectors) {
      return this.#denseRows(this.#vectors, query, limit, filter, meanwhile, exact);
    }
    meanwhile?.();
    const storedDims = this.#storedDims;
    if (storedDims?.done) this.#storedDims = undefined;
    else if (storedDims) {
      for (let dim = 0; dim < query.length; dim++) {
        if (query[dim] !== 0 && this.#dims[dim]) storedDims.ensure(dim);
      }
    }
    const accept = (slot: number) => this.#alive[slot] === 1 && this.#accepts(slot, filter);
    const { slots, scores } = this.#postingsDot.search(
      this.#dims,
      query,
      this.#keys.length,
      limit,
      accept,
      this.#idBefore,
    );
    return this.#scored(slots, scores);
  }

  /** Dense retrieval in the rows layout: live slots the filter lets through, nearest first. */
  #denseRows(
    vectors: DenseVectors,
    query: Float32Array,
    limit: number,
    filter: MetadataFilter | undefined,
    meanwhile: (() => void) | undefined,
    exact: number,
  ): Scored[] {
    const accept = (slot: number) => this.#alive[slot] === 1 && this.#accepts(slot, filter);
    const top = new SlotTopK(limit, this.#idBefore);
    const found = vectors.search(query, this.#keys.length, limit, accept, meanwhile, exact);
    for (const { slot, score } of found) {
      top.offer(slot, score);
    }
    const { slots, scores } = top.sorted();
    return this.#scored(slots, scores);
  }

  /**
   * Okapi BM25 over the analyzed terms; only chunks sharing a term with the
   * query, and of those only what `Bm25Scorer`'s pruning cannot rule out.
   */
  sparse(text: string, limit: number, filter?: MetadataFilter): Scored[] {
    if (this.#live === 0 || limit <= 0) return [];
    const postings: Postings<Uint16Array>[] = [];
    for (const term of new Set(analyze(text))) {
      const posting = this.#terms.get(term);
      if (posting) postings.push(posting);
    }
    const stored = this.#storedPostings;
    if (stored?.stored.done) this.#storedPostings = undefined;
    else if (stored) {
      for (const posting of postings) {
        const number = stored.numbers.get(posting);
        if (number !== undefined) stored.stored.ensure(number);
      }
    }
    const { slots, scores } = this.#bm25.search(
      postings,
      {
        alive: this.#alive,
        lengths: this.#lengths,
        live: this.#live,
        totalLength: this.#totalLength,
        slotCount: this.#keys.length,
      },
      limit,
      filter ? (slot) => this.#accepts(slot, filter) : undefined,
      this.#idBefore,
    );
    return this.#scored(slots, scores);
  }

  /** How many sparse queries the pruning cut short (for tests and benches). */
  sparseStats(): { pruned: number } {
    return { pruned: this.#bm25.pruned };
  }

  /** Ids for the final few slots only: nothing per candidate is made before this. */
  #scored(slots: Int32Array, scores: Float64Array): Scored[] {
    const scored: Scored[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      scored[i] = { id: this.#keys.id(slots[i]!), score: scores[i]! };
    }
    return scored;
  }

  #accepts(slot: number, filter: MetadataFilter | undefined): boolean {
    return !filter || matchesFilter(this.#keys.metadata(slot), filter);
  }

  #growSlots(capacity: number): void {
    if (capacity <= this.#alive.length) return;
    const alive = new Uint8Array(capacity);
    alive.set(this.#alive);
    const lengths = new Uint32Array(capacity);
    lengths.set(this.#lengths);
    this.#alive = alive;
    this.#lengths = lengths;
  }

  /** Renumbers the live slots from 0 and rebuilds the postings without the dead ones. */
  #rebuild(): void {
    const fresh = NamespaceIndex.restore(this.snapshot());
    this.#keys = fresh.#keys;
    this.#texts = fresh.#texts;
    this.#alive = fresh.#alive;
    this.#lengths = fresh.#lengths;
    this.#terms = fresh.#terms;
    this.#dims = fresh.#dims;
    this.#vectors = fresh.#vectors;
    this.#dimensions = fresh.#dimensions;
    this.#live = fresh.#live;
    this.#dead = 0;
    this.#totalLength = fresh.#totalLength;
    this.#bm25 = fresh.#bm25;
    this.#postingsDot = fresh.#postingsDot;
  }
}
