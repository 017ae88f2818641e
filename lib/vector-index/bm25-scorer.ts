import type { Postings } from "./postings.ts";
import { SlotTopK } from "./slot-top-k.ts";

export const K1 = 1.2;
export const B = 0.75;

/**
 * Bounds are compared with partial sums added in another order: a relative
 * slack far above float rounding (1e-16) and far below any real score gap
 * keeps a candidate whenever rounding alone could decide it.
 */
const SLACK = 1e-9;

/** A term's posting: slots ascending (slots are handed out in increasing order and renumbered in order). */
type TermPosting = Postings<Uint16Array>;

/**
 * What BM25 needs of a posting beyond its entries, brought up to date when
 * a query next reads the term: entries appended since are counted then, and
 * removals since are looked up in the entries counted before (slots ascend,
 * so a binary search), or everything is recounted when that is cheaper.
 */
type TermStats = {
  documentFrequency: number;
  /** Entries `0 .. counted - 1` are in the figures. */
  counted: number;
  /** Removals (the scorer's log) already taken off. */
  removalsSeen: number;
  /** The largest count and smallest length over the live entries counted: a bound on any score. */
  maxCount: number;
  minLength: number;
};

/** The namespace's per-slot arrays and totals, as they are for one query. */
export type Bm25Corpus = {
  alive: Uint8Array;
  lengths: Uint32Array;
  live: number;
  totalLength: number;
  slotCount: number;
};

type QueryTerm = { posting: TermPosting; idf: number; bound: number };

/**
 * Okapi BM25 over a namespace's term postings at what the postings cost:
 * document frequencies kept per term (not recounted per query), score
 * accumulators and a list of the slots they touched reused across queries
 * (no per-query arrays of the namespace's size, no scan of every slot), a
 * typed top-k, and MaxScore-style pruning evaluated term at a time: terms go
 * highest score bound first, and once the k-th best partial score exceeds
 * what all the terms left could add, no untouched slot can enter the top k.
 * From there the remaining (common, low-idf) terms' postings are not scanned:
 * each surviving candidate is looked up in them by galloping search, and
 * candidates that can no longer reach the k-th best are dropped. The top k
 * is the exhaustive one's (`bm25-scorer_test.ts` checks it against a plain
 * BM25 on random Zipf corpora with removals).
 *
 * One scorer per namespace; `removed(slot)` on every removal. Synchronous: a
 * query runs to its end before another starts, so the buffers are shared.
 */
export class Bm25Scorer {
  readonly #stats = new Map<TermPosting, TermStats>();
  readonly #removals: number[] = [];
  #scores = new Float64Array(0);
  #touched = new Uint32Array(0);
  #touchedCount = 0;
  /** Per slot during a query: 0 not yet asked, 1 accepted by the filter, 2 not. */
  #acceptance = new Uint8Array(0);
  /** Queries that stopped scanning postings early (for tests and benches). */
  pruned = 0;

  /** Notes a removed slot, so document frequencies can drop it lazily. */
  removed(slot: number): void {
    this.#removals.push(slot);
  }

  /**
   * The `limit` best slots for a query of `postings` (one per distinct query
   * term), best first; ties go to the slot `before` puts first.
   */
  search(
    postings: readonly TermPosting[],
    corpus: Bm25Corpus,
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
    before: (a: number, b: number) => boolean,
  ): { slots: Int32Array; scores: Float64Array } {
    const terms = this.#queryTerms(postings, corpus);
    if (terms.length === 0 || limit <= 0) {
      return { slots: new Int32Array(0), scores: new Float64Array(0) };
    }
    this.#reserve(corpus.slotCount);
    const accepted = accept ? (slot: number) => this.#accepted(slot, accept) : undefined;
    // remaining[t]: the most terms t.. can add to any slot's score.
    const remaining = new Float64Array(terms.length + 1);
    for (let t = terms.length - 1; t >= 0; t--) remaining[t] = remaining[t + 1]! + terms[t]!.bound;
    const average = corpus.totalLength / corpus.live || 1;
    try {
      let t = 0;
      let threshold = -Infinity;
      for (; t < terms.length; t++) {
        // Worth asking only when the next posting costs more to scan than the question.
        if (t > 0 && terms[t]!.posting.length > this.#touchedCount) {
          threshold = this.#kthBest(this.#touched, this.#touchedCount, limit, accepted);
          if (remaining[t]! < threshold * (1 - SLACK)) break;
        }
        this.#accumulate(terms[t]!, corpus, average);
      }
      if (t === terms.length) {
        return this.#best(this.#touched, this.#touchedCount, limit, accepted, before);
      }
      let candidates = this.#survivors(
        this.#touched,
        this.#touchedCount,
        remaining[t]!,
        threshold,
        accepted,
      );
      candidates.sort();
      this.pruned++;
      for (; t < terms.length; t++) {
        this.#lookUp(terms[t]!, candidates, corpus, average);
        threshold = this.#kthBest(candidates, candidates.length, limit, undefined);
        candidates = this.#survivors(
          candidates,
          candidates.length,
          remaining[t + 1]!,
          threshold,
          undefined,
        );
      }
      return this.#best(candidates, candidates.length, limit, undefined, before);
    } finally {
      this.#clear();
    }
  }

  /** The query's terms with a live entry, their idf and score bound, highest bound first. */
  #queryTerms(postings: readonly TermPosting[], corpus: Bm25Corpus): QueryTerm[] {
    if (corpus.live === 0) return [];
    const average = corpus.totalLength / corpus.live || 1;
    const terms: QueryTerm[] = [];
    for (const posting of postings) {
      const stats = this.#statsOf(posting, corpus);
      const frequency = stats.documentFrequency;
      if (frequency === 0) continue;
      const idf = Math.log(1 + (corpus.live - frequency + 0.5) / (frequency + 0.5));
      const norm = K1 * (1 - B + B * (stats.minLength / average));
      const bound = idf * (stats.maxCount * (K1 + 1)) / (stats.maxCount + norm);
      terms.push({ posting, idf, bound });
    }
    return terms.sort((a, b) => b.bound - a.bound);
  }

  #statsOf(posting: TermPosting, { alive, lengths }: Bm25Corpus): TermStats {
    const removals = this.#removals;
    let stats = this.#stats.get(posting);
    if (!stats) {
      stats = {
        documentFrequency: 0,
        counted: 0,
        removalsSeen: removals.length,
        maxCount: 0,
        minLength: Infinity,
      };
      this.#stats.set(posting, stats);
    } else if (stats.removalsSeen < removals.length) {
      const pending = removals.length - stats.removalsSeen;
      if (pending * Math.log2(stats.counted + 2) < stats.counted) {
        for (let r = stats.removalsSeen; r < removals.length; r++) {
          const at = seek(posting.slots, 0, stats.counted, removals[r]!);
          if (at < stats.counted && posting.slots[at] === removals[r]) stats.documentFrequency--;
        }
      } else {
        // Bounds over entries since removed stay valid bounds: only the count restarts.
        stats.documentFrequency = 0;
        stats.counted = 0;
      }
      stats.removalsSeen = removals.length;
    }
    const { slots, values } = posting;
    for (let i = stats.counted; i < posting.length; i++) {
      const slot = slots[i]!;
      if (!alive[slot]) continue;
      stats.documentFrequency++;
      if (values[i]! > stats.maxCount) stats.maxCount = values[i]!;
      if (lengths[slot]! < stats.minLength) stats.minLength = lengths[slot]!;
    }
    stats.counted = posting.length;
    return stats;
  }

  /** Adds one term's score to every live slot of its posting. */
  #accumulate({ posting, idf }: QueryTerm, corpus: Bm25Corpus, average: number): void {
    const { alive, lengths } = corpus;
    const { slots, values } = posting;
    const scores = this.#scores;
    const touched = this.#touched;
    let touchedCount = this.#touchedCount;
    for (let i = 0; i < posting.length; i++) {
      const slot = slots[i]!;
      if (!alive[slot]) continue;
      const frequency = values[i]!;
      const norm = K1 * (1 - B + B * (lengths[slot]! / average));
      const score = scores[slot]!;
      if (score === 0) touched[touchedCount++] = slot;
      scores[slot] = score + idf * (frequency * (K1 + 1)) / (frequency + norm);
    }
    this.#touchedCount = touchedCount;
  }

  /** Adds one term's score to the candidates (ascending) found in its posting. */
  #lookUp(
    { posting, idf }: QueryTerm,
    candidates: Uint32Array,
    { lengths }: Bm25Corpus,
    average: number,
  ): void {
    const { slots, values } = posting;
    const scores = this.#scores;
    let at = 0;
    for (let c = 0; c < candidates.length && at < posting.length; c++) {
      const slot = candidates[c]!;
      at = seek(slots, at, posting.length, slot);
      if (at >= posting.length || slots[at] !== slot) continue;
      const frequency = values[at]!;
      const norm = K1 * (1 - B + B * (lengths[slot]! / average));
      scores[slot] = scores[slot]! + idf * (frequency * (K1 + 1)) / (frequency + norm);
    }
  }

  /** The k-th best accepted score among `slots[0 .. count - 1]`, -Infinity if fewer. */
  #kthBest(
    slots: Uint32Array,
    count: number,
    limit: number,
    accepted: ((slot: number) => boolean) | undefined,
  ): number {
    const top = new SlotTopK(limit);
    const scores = this.#scores;
    for (let i = 0; i < count; i++) {
      const slot = slots[i]!;
      const score = scores[slot]!;
      if (score > top.floor && (!accepted || accepted(slot))) top.offer(slot, score);
    }
    return top.floor;
  }

  /** The accepted slots whose score plus `remaining` can still reach `threshold`. */
  #survivors(
    slots: Uint32Array,
    count: number,
    remaining: number,
    threshold: number,
    accepted: ((slot: number) => boolean) | undefined,
  ): Uint32Array {
    const reach = threshold * (1 - SLACK);
    const scores = this.#scores;
    const kept = new Uint32Array(count);
    let keptCount = 0;
    for (let i = 0; i < count; i++) {
      const slot = slots[i]!;
      if (scores[slot]! + remaining >= reach && (!accepted || accepted(slot))) {
        kept[keptCount++] = slot;
      }
    }
    return kept.subarray(0, keptCount);
  }

  #best(
    slots: Uint32Array,
    count: number,
    limit: number,
    accepted: ((slot: number) => boolean) | undefined,
    before: (a: number, b: number) => boolean,
  ): { slots: Int32Array; scores: Float64Array } {
    const top = new SlotTopK(limit, before);
    const scores = this.#scores;
    for (let i = 0; i < count; i++) {
      const slot = slots[i]!;
      const score = scores[slot]!;
      if (score >= top.floor && (!accepted || accepted(slot))) top.offer(slot, score);
    }
    return top.sorted();
  }

  #accepted(slot: number, accept: (slot: number) => boolean): boolean {
    const known = this.#acceptance[slot]!;
    if (known !== 0) return known === 1;
    const verdict = accept(slot);
    this.#acceptance[slot] = verdict ? 1 : 2;
    return verdict;
  }

  /** Zeroes what the query touched (cheaper than the namespace-sized fill it replaces). */
  #clear(): void {
    const touched = this.#touched;
    for (let i = 0; i < this.#touchedCount; i++) {
      this.#scores[touched[i]!] = 0;
      this.#acceptance[touched[i]!] = 0;
    }
    this.#touchedCount = 0;
  }

  #reserve(slotCount: number): void {
    if (slotCount <= this.#scores.length) return;
    const capacity = Math.max(slotCount, Math.ceil(this.#scores.length * 1.5), 64);
    this.#scores = new Float64Array(capacity);
    this.#touched = new Uint32Array(capacity);
    this.#acceptance = new Uint8Array(capacity);
  }
}

/**
 * The first index in `from .. end - 1` whose slot is at least `target`
 * (`end` if none): galloping (1, 2, 4, ... ahead, then a binary search), so
 * a walk over ascending targets costs O(log gap) per step.
 */
export function seek(slots: Uint32Array, from: number, end: number, target: number): number {
  if (from >= end || slots[from]! >= target) return from;
  let low = from;
  let step = 1;
  let high = from + 1;
  while (high < end && slots[high]! < target) {
    low = high;
    step *= 2;
    high = low + step;
  }
  if (high > end) high = end;
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (slots[middle]! < target) low = middle;
    else high = middle;
  }
  return high;
}
