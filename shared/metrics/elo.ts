/**
 * Elo tournaments over pairwise games (RAGElo, paper 001 §6 and table 6).
 * The expected score is the textbook one, `E_A = 1 / (1 + 10^((R_B − R_A) / 400))`;
 * RAGElo's code flips the sign of the exponent, which rewards losing to a
 * stronger player, so it is not copied here.
 */
import { mulberry32, randomIndex, shuffleInPlace } from "../random.ts";

/** A game's verdict: A won, B won, or C (a tie). */
export type Winner = "A" | "B" | "C";

export type Game = { a: string; b: string; winner: Winner };

export type EloOptions = {
  /** Shuffled passes over the games; ratings reset to `initial` before each. Default 500. */
  tournaments?: number;
  /** The K-factor: the most one game can move a rating. Default 32. */
  k?: number;
  /**
   * Every agent's rating before its first game. Default 500: RAGElo's
   * published ratings (paper 001, table 6) average 500, and a fixed-K Elo
   * keeps the mean at the initial rating, so 500 makes them comparable.
   */
  initial?: number;
  /** Seeds the shuffles and the bootstrap (taken modulo 2^32). Default 0. */
  seed?: number;
  /** Bootstrap resamples behind the confidence interval. Default 1000. */
  bootstrap?: number;
  /** Coverage of the confidence interval, in (0, 1). Default 0.95. */
  confidence?: number;
};

export type AgentRating = {
  agent: string;
  /** Mean final rating over the tournaments. */
  score: number;
  /** Population standard deviation (divides by the number of tournaments) of the final rating. */
  std: number;
  ci_low: number;
  ci_high: number;
  wins: number;
  losses: number;
  ties: number;
};

export const ELO_DEFAULTS = {
  tournaments: 500,
  k: 32,
  initial: 500,
  seed: 0,
  bootstrap: 1000,
  confidence: 0.95,
} as const;

/**
 * The score A is expected to take from a game against B: 0.5 for equal
 * ratings, towards 1 as A's rating rises above B's.
 *
 * @example
 * expectedScore(1200, 1000); // ≈ 0.76
 */
export function expectedScore(ratingA: number, ratingB: number): number {
  return 1 / (1 + 10 ** ((ratingB - ratingA) / 400));
}

/**
 * Runs the Elo tournament: `tournaments` passes over the games, each in a
 * fresh seeded shuffle from ratings reset to `initial`; each game moves A by
 * `k (S − E_A)` and B by the opposite amount (S = 1 win, 0 loss, 0.5 tie), so
 * the ratings' sum never changes. `score` and `std` summarise the final
 * ratings over the tournaments.
 *
 * The confidence interval is a percentile bootstrap: `bootstrap` times, draw
 * as many games as given, with replacement (the draws come in random order,
 * so each resample is also a shuffle), rate them in one pass, and keep each
 * agent's final rating; `ci_low` and `ci_high` are the (1 − confidence) / 2
 * and (1 + confidence) / 2 percentiles of those ratings (linear interpolation
 * between order statistics, numpy's default). It covers both which games were
 * played and the order they were played in. An agent absent from a resample
 * keeps `initial` there. Memory grows with agents × bootstrap.
 *
 * Deterministic for a given seed. Ratings come best first (ties by name).
 *
 * @example
 * const { ratings } = eloTournament([{ a: "rag", b: "rag-fusion", winner: "B" }]);
 * ratings[0].agent; // "rag-fusion"
 */
export function eloTournament(
  games: readonly Game[],
  options: EloOptions = {},
): { ratings: AgentRating[] } {
  const settings = { ...ELO_DEFAULTS, ...definedOnly(options) };
  checkSettings(settings);
  const league = compile(games);
  const agents = league.names.length;
  const ratings = new Float64Array(agents);

  // Welford's running mean and sum of squared deviations, per agent.
  const means = new Float64Array(agents);
  const squares = new Float64Array(agents);
  const shuffles = mulberry32(settings.seed);
  const order = Uint32Array.from(games, (_, index) => index);
  for (let t = 1; t <= settings.tournaments; t++) {
    shuffleInPlace(order, shuffles);
    ratePass(league, order, ratings, settings);
    for (let agent = 0; agent < agents; agent++) {
      const rating = ratings[agent]!;
      const delta = rating - means[agent]!;
      means[agent]! += delta / t;
      squares[agent]! += delta * (rating - means[agent]!);
    }
  }

  const samples = Array.from({ length: agents }, () => new Float64Array(settings.bootstrap));
  const draws = mulberry32((settings.seed ^ 0x9e3779b9) >>> 0);
  for (let resample = 0; resample < settings.bootstrap; resample++) {
    for (let i = 0; i < order.length; i++) order[i] = randomIndex(draws, order.length);
    ratePass(league, order, ratings, settings);
    for (let agent = 0; agent < agents; agent++) samples[agent]![resample] = ratings[agent]!;
  }

  const tail = (1 - settings.confidence) / 2;
  const result = league.names.map((agent, index): AgentRating => {
    const sorted = samples[index]!.sort();
    return {
      agent,
      score: means[index]!,
      std: Math.sqrt(squares[index]! / settings.tournaments),
      ci_low: percentile(sorted, tail),
      ci_high: percentile(sorted, 1 - tail),
      wins: league.wins[index]!,
      losses: league.losses[index]!,
      ties: league.ties[index]!,
    };
  });
  result.sort((x, y) => y.score - x.score || (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0));
  return { ratings: result };
}

/**
 * One pass over the games in the order given, from `initial`: each agent's
 * final rating. The building block of a tournament, exposed for tests.
 */
export function rateGames(
  games: readonly Game[],
  options: { k?: number; initial?: number } = {},
): Map<string, number> {
  const settings = { ...ELO_DEFAULTS, ...definedOnly(options) };
  checkSettings(settings);
  const league = compile(games);
  const ratings = new Float64Array(league.names.length);
  ratePass(league, Uint32Array.from(games, (_, index) => index), ratings, settings);
  return new Map(league.names.map((name, index) => [name, ratings[index]!]));
}

type League = {
  names: string[];
  a: Uint32Array;
  b: Uint32Array;
  /** A's score per game: 1, 0 or 0.5. */
  scoreA: Float64Array;
  wins: Uint32Array;
  losses: Uint32Array;
  ties: Uint32Array;
};

const SCORE_A: Record<Winner, number> = { A: 1, B: 0, C: 0.5 };

function compile(games: readonly Game[]): League {
  const ids = new Map<string, number>();
  const idOf = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) ids.set(name, id = ids.size);
    return id;
  };
  const a = new Uint32Array(games.length);
  const b = new Uint32Array(games.length);
  const scoreA = new Float64Array(games.length);
  games.forEach((game, index) => {
    if (typeof game.a !== "string" || typeof game.b !== "string") {
      throw new TypeError(`games[${index}]: a and b must be agent names`);
    }
    if (game.a === game.b) {
      throw new RangeError(
        `games[${index}]: an agent cannot play itself (${JSON.stringify(game.a)})`,
      );
    }
    if (!Object.hasOwn(SCORE_A, game.winner)) {
      throw new RangeError(`games[${index}]: winner must be "A", "B" or "C"`);
    }
    a[index] = idOf(game.a);
    b[index] = idOf(game.b);
    scoreA[index] = SCORE_A[game.winner];
  });
  const names = [...ids.keys()];
  const wins = new Uint32Array(names.length);
  const losses = new Uint32Array(names.length);
  const ties = new Uint32Array(names.length);
  for (let index = 0; index < games.length; index++) {
    const [first, second, score] = [a[index]!, b[index]!, scoreA[index]!];
    if (score === 0.5) {
      ties[first]!++;
      ties[second]!++;
    } else {
      wins[score === 1 ? first : second]!++;
      losses[score === 1 ? second : first]!++;
    }
  }
  return { names, a, b, scoreA, wins, losses, ties };
}

function ratePass(
  league: League,
  order: Uint32Array,
  ratings: Float64Array,
  settings: { k: number; initial: number },
): void {
  ratings.fill(settings.initial);
  const { a, b, scoreA } = league;
  for (let i = 0; i < order.length; i++) {
    const game = order[i]!;
    const first = a[game]!;
    const second = b[game]!;
    const expected = expectedScore(ratings[first]!, ratings[second]!);
    const change = settings.k * (scoreA[game]! - expected);
    ratings[first]! += change;
    ratings[second]! -= change;
  }
}

/** The q-quantile of sorted values, interpolating linearly between order statistics. */
function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

function checkSettings(settings: Required<EloOptions>): void {
  const wholeAtLeast = (name: keyof EloOptions, min: number) => {
    const value = settings[name];
    if (!Number.isInteger(value) || value < min) {
      throw new RangeError(`${name}: must be a whole number of at least ${min}`);
    }
  };
  wholeAtLeast("tournaments", 1);
  wholeAtLeast("bootstrap", 1);
  if (!Number.isInteger(settings.seed)) throw new RangeError("seed: must be a whole number");
  if (!Number.isFinite(settings.k) || settings.k < 0) {
    throw new RangeError("k: must be a finite number of at least 0");
  }
  if (!Number.isFinite(settings.initial)) throw new RangeError("initial: must be a finite number");
  if (!(settings.confidence > 0 && settings.confidence < 1)) {
    throw new RangeError("confidence: must be between 0 and 1 (exclusive)");
  }
}

/** Drops `undefined` options so they fall back to the defaults. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
