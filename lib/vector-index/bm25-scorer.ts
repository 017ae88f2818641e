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

/**
 * Inside a search, a term's part of a score is a whole number of 2^-36ths
 * (rounding moves it by at most 8e-12). Sums of whole numbers below 2^53
 * are exact in any order (up to about 4,000 distinct query terms), so a
 * chunk's score does not depend on the order its terms were added in, which
 * the pruning changes with the window it falls in: two indexes holding the
 * same chunks under other slot numbers rank ties alike.
 */
const GRID = 2 ** 36;

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
  };
}

/**
 * Slots a window of the search covers: 4,096 (a window's sums, 32 KB, stay
 * in the processor's first-level cache), fewer on a small namespace, so that
 * it too has windows after which the pruning can set terms aside.
 */
function windowWidth(slotCount: number): number {
  return Math.min(4096, Math.max(64, (Math.ceil(slotCount / 16) + 31) & ~31));
}

/** A window's sums (0 outside a search) and one bit per slot a walked term reached. */
function windowScratch(width: number) {
  return { sums: new Float64Array(width), marks: new Uint32Array(width >>> 5) };
}

type QueryTerm = {
  slots: Uint32Array;
  counts: Uint16Array;
  length: number;
  /** idf * (k1 + 1), in units of the grid. */
  weight: number;
  /** The most the term adds to a score, in units of the grid. */
  bound: number;
};

/**
 * Okapi BM25 over a namespace's term postings at what the postings cost:
 * document frequencies kept per term (not recounted per query), a typed
 * top-k, ids only for the final k, and MaxScore (Turtle & Flood) over
 * windows of slots, as Lucene's MaxScoreBulkScorer does. Terms are ordered
 * by the most each can add to a score (its bound); once the k-th best score
 * so far exceeds what the lowest-bound terms could add together, those terms
 * are "non-essential": no chunk found only in them can enter the top k, so
 * their postings are no longer walked. In each window of slots, the
 * essential terms' postings are walked term by term into the window's sums
 * (a tight loop, where merging them chunk by chunk cost a comparison per
 * term per chunk: 1.4x slower on ARAGOG's questions over 100k chunks); then
 * each chunk they reached, in slot order, adds the non-essential terms'
 * counts by galloping search into their postings, highest bound first, and
 * stops as soon as its score plus what the rest could add falls below the
 * k-th best. The split is made again between windows. On real questions
 * (several common words beside a few rare ones) the common words' postings,
 * the bulk of the entries, are then sought into rather than scanned. The
 * top k is the exhaustive one's (`bm25-scorer_test.ts` checks it against a
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
  #window = windowScratch(64);
  #windowDirty = false;

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
    const { below, cursors } = this.#scratch;
    // below[t]: the most terms 0 .. t - 1 (the lowest bounds) can add to any score.
    below[0] = 0;
    for (let t = 0; t < count; t++) below[t + 1] = below[t]! + terms[t]!.bound;
    cursors.fill(0, 0, count);
    const slotCount = corpus.slotCount;
    const width = windowWidth(slotCount);
    if (this.#window.sums.length < width || this.#windowDirty) this.#window = windowScratch(width);
    const { sums, marks } = this.#window;
    // Each window leaves its sums and marks cleared, unless `accept` throws: then the next query starts afresh.
    this.#windowDirty = true;
    // Terms essential .. count - 1 are walked; terms below `essential` are only sought into.
    let essential = 0;
    let reach = -Infinity;
    for (let start = 0; start < slotCount; start += width) {
      const end = Math.min(start + width, slotCount);
      // The walked terms' parts of each score in the window, term by term (whole units of
      // the grid: a chunk's sum is the same whichever terms were walked for its window).
      for (let t = essential; t < count; t++) {
        const term = terms[t]!;
        const { slots, counts, weight } = term;
        let at = cursors[t]!;
        for (; at < term.length; at++) {
          const slot = slots[at]!;
          if (slot >= end) break;
          const frequency = counts[at]!;
          const norm = lengthBase + lengthScale * lengths[slot]!;
          const local = slot - start;
          // Math.floor(0.5 + x), not Math.round(x): the same here, and 1.5x faster in V8.
          sums[local] = sums[local]! + Math.floor(0.5 + weight * frequency / (frequency + norm));
          marks[local >>> 5] = marks[local >>> 5]! | (1 << (local & 31));
        }
        cursors[t] = at;
      }
      const walked = essential;
      // The chunks the walked terms reached, in slot order, by the set bits of `marks`.
      const words = (end - start + 31) >>> 5;
      for (let w = 0; w < words; w++) {
        let bits = marks[w]!;
        if (bits === 0) continue;
        marks[w] = 0;
        do {
          const low = bits & -bits;
          bits ^= low;
          const local = (w << 5) | (31 - Math.clz32(low));
          let score = sums[local]!;
          sums[local] = 0;
          const slot = start + local;
          if (alive[slot] !== 1 || score + below[walked]! < reach) continue;
          const norm = lengthBase + lengthScale * lengths[slot]!;
          let t = walked - 1;
          for (; t >= 0; t--) {
            if (score + below[t + 1]! < reach) break;
            const term = terms[t]!;
            const at = seek(term.slots, cursors[t]!, term.length, slot);
            cursors[t] = at;
            if (at >= term.length || term.slots[at] !== slot) continue;
            const frequency = term.counts[at]!;
            score += Math.floor(0.5 + term.weight * frequency / (frequency + norm));
          }
          if (t >= 0 || score < top.floor || (accept && !accept(slot))) continue;
          top.offer(slot, score);
          if (top.size === limit) reach = top.floor * (1 - SLACK);
        } while (bits !== 0);
      }
      while (essential < count && below[essential + 1]! < reach) essential++;
    }
    this.#windowDirty = false;
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
    for (let i = 0; i < count; i++) this.#bestScores[i] = this.#bestScores[i]! / GRID;
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
      // Slack upward: the bound must not fall under a real score by rounding (one grid unit
      // for the rounding to the grid, which is more than the slack on a tiny score).
      const bound = idf * (K1 + 1) * GRID / denominator * (1 + SLACK) + 1;
      const { slots, values, length } = posting;
      terms.push({ slots, counts: values, length, weight: idf * (K1 + 1) * GRID, bound });
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
