import { analyze } from "../text/analyze.ts";

export type Bm25Options = {
  /** Term-frequency saturation; Okapi's usual 1.2. */
  k1?: number;
  /** Length normalization; Okapi's usual 0.75. */
  b?: number;
  /** Text to terms; `analyze` (stop words, stemming) by default. */
  analyzer?: (text: string) => string[];
};

export type ScoredId = { id: string; score: number };

/**
 * An in-memory Okapi BM25 index with an inverted list per term, so a query
 * touches only the documents that share a term with it. IDF is
 * `ln(1 + (N - df + 0.5) / (df + 0.5))`, which stays positive for common terms.
 *
 * @example
 * const index = new Bm25Index();
 * index.add("a", "reciprocal rank fusion");
 * index.search("rank fusion", 5); // [{ id: "a", score: ... }]
 */
export class Bm25Index {
  readonly #k1: number;
  readonly #b: number;
  readonly #analyzer: (text: string) => string[];
  readonly #postings = new Map<string, Map<string, number>>();
  readonly #lengths = new Map<string, number>();
  #totalLength = 0;

  constructor(options: Bm25Options = {}) {
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
    this.#analyzer = options.analyzer ?? analyze;
  }

  get size(): number {
    return this.#lengths.size;
  }

  /** Adds or replaces a document. */
  add(id: string, text: string): void {
    if (this.#lengths.has(id)) this.remove(id);
    const terms = this.#analyzer(text);
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    for (const [term, frequency] of frequencies) {
      let posting = this.#postings.get(term);
      if (!posting) this.#postings.set(term, posting = new Map());
      posting.set(id, frequency);
    }
    this.#lengths.set(id, terms.length);
    this.#totalLength += terms.length;
  }

  remove(id: string): boolean {
    const length = this.#lengths.get(id);
    if (length === undefined) return false;
    for (const [term, posting] of this.#postings) {
      if (posting.delete(id) && posting.size === 0) this.#postings.delete(term);
    }
    this.#lengths.delete(id);
    this.#totalLength -= length;
    return true;
  }

  /** Scores documents sharing a term with the query; best first, ties by id. */
  search(query: string, limit: number, accept?: (id: string) => boolean): ScoredId[] {
    const documentCount = this.#lengths.size;
    if (documentCount === 0) return [];
    const averageLength = this.#totalLength / documentCount || 1;
    const scores = new Map<string, number>();
    for (const term of new Set(this.#analyzer(query))) {
      const posting = this.#postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (documentCount - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, frequency] of posting) {
        if (accept && !accept(id)) continue;
        const length = this.#lengths.get(id) ?? 0;
        const norm = this.#k1 * (1 - this.#b + this.#b * (length / averageLength));
        const termScore = idf * (frequency * (this.#k1 + 1)) / (frequency + norm);
        scores.set(id, (scores.get(id) ?? 0) + termScore);
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .slice(0, limit);
  }
}
