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

/** Past a posting's last entry: above every slot. */
const END = 0xffffffff;

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
  /** The largest count and smallest length / count over the live entries counted: a score bound. */
  maxCount: number;
  minLengthPerCount: number;
};

/** The namespace's per-slot arrays and totals, as they are for one query. */
export type Bm25Corpus = {
  alive: Uint8Array;
  lengths: Uint32Array;
  live: number;
  totalLength: number;
  slotCount: number;
};

/** One query's per-term working arrays (indexes past the query's term count are ignored). */
function scratchFor(terms: number) {
  return {
    below: new Float64Array(terms + 1),
    cursors: new Uint32Array(terms),
    heads: new Uint32Array(terms),
    bounds: new Float64Array(terms),
    matches: new Uint32Array(terms),
  };
}

type QueryTerm = {
  slots: Uint32Array;
  counts: Uint16Array;
  length: number;
  idf: number;
  bound: number;
};

/**
 * Okapi BM25 over a namespace's term postings at what the postings cost:
 * document frequencies kept per term (not recounted per query), a typed
 * top-k, ids only for the final k, and MaxScore (Turtle & Flood) document at
 * a time. Terms are ordered by the most each can add to a score (its bound);
 * once the k-th best score so far exceeds what the lowest-bound terms could
 * add together, those terms are "non-essential": no chunk found only in them
 * can enter the top k, so their postings are no longer walked. Candidates
 * come from the essential terms' postings, merged in slot order; each adds
 * the non-essential terms' counts by galloping search into their postings,
 * highest bound first, and stops as soon as its score plus what the rest
 * could add falls below the k-th best. On real questions (several common
 * words beside a few rare ones) the common words' postings, the bulk of the
 * entries, are then sought into rather than scanned. The top k is the
 * exhaustive one's (`bm25-scorer_test.ts` checks it against a
 * plain BM25 on random Zipf corpora with removals and filters).
 *
 * Bounds use the largest count and the smallest length-to-count ratio a
 * term's live entries had: BM25's term score is
 * `(k1 + 1) / (1 + k1 * ((1 - b) / count + (b / avgdl) * (length / count)))`,
 * so those two bound it for any average length, and far more tightly than
 * the largest count and the smallest length taken apart.
 *
 * One scorer per namespace; `removed(slot)` on every removal. Synchronous: a
 * query runs to its end before another starts.
 */
export class Bm25Scorer {
  readonly #stats = new Map<TermPosting, TermStats>();
  readonly #removals: number[] = [];
  /** Queries where some term's posting was sought into rather than walked (for tests and benches). */
  pruned = 0;
  /** The last query's top k, empty again after it: the next query with the same k reuses it. */
  #top: SlotTopK | undefined;
  #topBefore: ((a: number, b: number) => boolean) | undefined;
  #bestSlots = new Int32Array(0);
  #bestScores = new Float64Array(0);
  /** Per-term scratch arrays, reused by every query (queries never overlap), grown as needed. */
  #scratch = scratchFor(8);

  /** Notes a removed slot, so document frequencies can drop it lazily. */
  removed(slot: number): void {
    this.#removals.push(slot);
  }

  /**
   * The `limit` best slots for a query of `postings` (one per distinct query
   * term), best first; ties go to the slot `before` puts first. The arrays
   * are the scorer's own, overwritten by its next search.
   */
  search(
    postings: readonly TermPosting[],
    corpus: Bm25Corpus,
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
    before: (a: number, b: number) => boolean,
  ): { slots: Int32Array; scores: Float64Array } {
    const terms = this.#queryTerms(postings, corpus);
    let top = this.#top;
    if (!top || top.limit !== limit || top.size !== 0 || this.#topBefore !== before) {
      top = new SlotTopK(limit, before);
      this.#top = top;
      this.#topBefore = before;
    }
    if (terms.length === 0 || limit <= 0) return this.#best(top);
    const { alive, lengths } = corpus;
    const average = corpus.totalLength / corpus.live || 1;
    // norm(length) = k1 * (1 - b + b * length / avgdl) = lengthBase + lengthScale * length.
    const lengthBase = K1 * (1 - B);
    const lengthScale = K1 * B / average;
    const count = terms.length;
    if (this.#scratch.cursors.length < count) this.#scratch = scratchFor(count);
    const { below, cursors, heads, bounds, matches } = this.#scratch;
    // below[t]: the most terms 0 .. t - 1 (the lowest bounds) can add to any score.
    below[0] = 0;
    for (let t = 0; t < count; t++) below[t + 1] = below[t]! + terms[t]!.bound;
    // heads[t]: the slot at term t's cursor (END past its last), read without a second lookup.
    for (let t = 0; t < count; t++) {
      const term = terms[t]!;
      cursors[t] = 0;
      bounds[t] = term.bound;
      heads[t] = term.length > 0 ? term.slots[0]! : END;
    }
    // Terms essential .. count - 1 are walked; terms below `essential` are only sought into.
    let essential = 0;
    let reach = -Infinity;
    for (;;) {
      // The smallest head of the walked terms, the terms there, and what they could add at most.
      let slot = END;
      let matched = 0;
      let bound = 0;
      for (let t = essential; t < count; t++) {
        const head = heads[t]!;
        if (head > slot) continue;
        if (head < slot) {
          slot = head;
          matched = 0;
          bound = 0;
        }
        matches[matched++] = t;
        bound += bounds[t]!;
      }
      if (slot === END) break;
      // What the chunk could score at most, before any division: most candidates stop here.
      const most = below[essential]! + bound;
      const wanted = most >= reach && alive[slot] === 1;
      const norm = lengthBase + lengthScale * lengths[slot]!;
      let score = 0;
      for (let m = 0; m < matched; m++) {
        const t = matches[m]!;
        const term = terms[t]!;
        const at = cursors[t]!;
        cursors[t] = at + 1;
        heads[t] = at + 1 < term.length ? term.slots[at + 1]! : END;
        if (!wanted) continue;
        const frequency = term.counts[at]!;
        score += term.idf * (frequency * (K1 + 1)) / (frequency + norm);
      }
      if (!wanted) continue;
      let t = essential - 1;
      for (; t >= 0; t--) {
        if (score + below[t + 1]! < reach) break;
        const term = terms[t]!;
        const at = seek(term.slots, cursors[t]!, term.length, slot);
        cursors[t] = at;
        if (at >= term.length || term.slots[at] !== slot) continue;
        const frequency = term.counts[at]!;
        score += term.idf * (frequency * (K1 + 1)) / (frequency + norm);
      }
      if (t >= 0 || score < top.floor || (accept && !accept(slot))) continue;
      top.offer(slot, score);
      if (top.size < limit) continue;
      reach = top.floor * (1 - SLACK);
      while (essential < count && below[essential + 1]! < reach) essential++;
    }
    if (essential > 0) this.pruned++;
    return this.#best(top);
  }

  /**
   * The top k, best first, in arrays this scorer reuses (an array of 80 bytes
   * or more is allocated outside the heap, at a cost per query): valid until
   * the next search, which is what its one caller needs (ids are read at once).
   */
  #best(top: SlotTopK): { slots: Int32Array; scores: Float64Array } {
    if (this.#bestSlots.length < top.size) {
      this.#bestSlots = new Int32Array(top.size);
      this.#bestScores = new Float64Array(top.size);
    }
    const count = top.drainInto(this.#bestSlots, this.#bestScores);
    return {
      slots: this.#bestSlots.subarray(0, count),
      scores: this.#bestScores.subarray(0, count),
    };
  }

  /** The query's terms with a live entry, their idf and score bound, lowest bound first. */
  #queryTerms(postings: readonly TermPosting[], corpus: Bm25Corpus): QueryTerm[] {
    if (corpus.live === 0) return [];
    const average = corpus.totalLength / corpus.live || 1;
    const terms: QueryTerm[] = [];
    for (const posting of postings) {
      const stats = this.#statsOf(posting, corpus);
      const frequency = stats.documentFrequency;
      if (frequency === 0) continue;
      const idf = Math.log(1 + (corpus.live - frequency + 0.5) / (frequency + 0.5));
      const denominator = 1 +
        K1 * ((1 - B) / stats.maxCount + (B / average) * stats.minLengthPerCount);
      // Slack upward: the bound must not fall under a real score by rounding.
      const bound = idf * (K1 + 1) / denominator * (1 + SLACK);
      const { slots, values, length } = posting;
      terms.push({ slots, counts: values, length, idf, bound });
    }
    return terms.sort((a, b) => a.bound - b.bound);
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
        minLengthPerCount: Infinity,
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
      const count = values[i]!;
      if (count > stats.maxCount) stats.maxCount = count;
      const ratio = lengths[slot]! / count;
      if (ratio < stats.minLengthPerCount) stats.minLengthPerCount = ratio;
    }
    stats.counted = posting.length;
    return stats;
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
