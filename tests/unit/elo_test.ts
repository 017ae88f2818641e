import assert from "node:assert/strict";
import { eloTournament, expectedScore, type Game, rateGames } from "../../shared/metrics/elo.ts";
import { mulberry32, shuffleInPlace } from "../../shared/random.ts";

function near(actual: number, expected: number, label = "", tolerance = 1e-9) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${label} expected ${expected}, got ${actual}`,
  );
}

/** Games whose Elo outcome depends on the order they are played in. */
const MIXED: Game[] = [
  { a: "x", b: "y", winner: "A" },
  { a: "y", b: "z", winner: "A" },
  { a: "z", b: "x", winner: "A" },
  { a: "x", b: "z", winner: "C" },
  { a: "y", b: "x", winner: "B" },
  { a: "z", b: "y", winner: "A" },
  { a: "x", b: "y", winner: "C" },
  { a: "w", b: "x", winner: "B" },
];

Deno.test("mulberry32() repeats for a seed and stays in [0, 1)", () => {
  const first = Array.from({ length: 5 }, mulberry32(7));
  assert.deepEqual(Array.from({ length: 5 }, mulberry32(7)), first);
  assert.notDeepEqual(Array.from({ length: 5 }, mulberry32(8)), first);
  const random = mulberry32(1);
  for (let i = 0; i < 1000; i++) {
    const value = random();
    assert.ok(value >= 0 && value < 1);
  }
});

Deno.test("shuffleInPlace() permutes every item exactly once", () => {
  const items = Array.from({ length: 50 }, (_, index) => index);
  shuffleInPlace(items, mulberry32(3));
  assert.notDeepEqual(items, Array.from({ length: 50 }, (_, index) => index));
  assert.deepEqual([...items].sort((p, q) => p - q), Array.from({ length: 50 }, (_, i) => i));
});

Deno.test("expectedScore() favours the higher rating (E_A = 1 / (1 + 10^((R_B − R_A) / 400)))", () => {
  assert.equal(expectedScore(1000, 1000), 0.5);
  near(expectedScore(1200, 1000), 1 / (1 + 10 ** (-200 / 400)));
  assert.ok(expectedScore(1200, 1000) > 0.75);
  assert.ok(expectedScore(1000, 1200) < 0.25);
  near(expectedScore(1200, 1000) + expectedScore(1000, 1200), 1);
});

Deno.test("rateGames() moves the winner up by k (1 − E) and the loser down as much", () => {
  const ratings = rateGames([{ a: "x", b: "y", winner: "A" }]);
  assert.deepEqual(Object.fromEntries(ratings), { x: 516, y: 484 });
  const won = rateGames([{ a: "x", b: "y", winner: "B" }], { k: 10, initial: 0 });
  assert.deepEqual(Object.fromEntries(won), { x: -5, y: 5 });
});

Deno.test("rateGames(): a player who always wins ends above the initial rating", () => {
  const games: Game[] = Array.from({ length: 30 }, () => ({ a: "champ", b: "rival", winner: "A" }));
  const ratings = rateGames(games);
  assert.ok(ratings.get("champ")! > 500 && ratings.get("rival")! < 500);
  // Each further win is worth less: the champion is expected to win.
  const afterOne = rateGames(games.slice(0, 1)).get("champ")! - 500;
  const afterTwo = rateGames(games.slice(0, 2)).get("champ")! - 500;
  assert.ok(afterTwo - afterOne < afterOne);
});

Deno.test("rateGames(): a tie scores 0.5, so it moves nobody at equal ratings and lifts the weaker", () => {
  assert.deepEqual(
    Object.fromEntries(rateGames([{ a: "x", b: "y", winner: "C" }])),
    { x: 500, y: 500 },
  );
  const ratings = rateGames([{ a: "x", b: "y", winner: "A" }, { a: "x", b: "y", winner: "C" }]);
  const change = 32 * (0.5 - expectedScore(516, 484));
  near(ratings.get("x")!, 516 + change, "x");
  near(ratings.get("y")!, 484 - change, "y");
  assert.ok(ratings.get("y")! > 484, "the weaker player gains from a tie");
});

Deno.test("rateGames() conserves the sum of ratings", () => {
  const ratings = rateGames(MIXED, { k: 40, initial: 1500 });
  near([...ratings.values()].reduce((sum, value) => sum + value, 0), 4 * 1500);
});

Deno.test("eloTournament() conserves the mean rating and counts wins, losses and ties", () => {
  const { ratings } = eloTournament(MIXED, { tournaments: 50, bootstrap: 50 });
  near(ratings.reduce((sum, rating) => sum + rating.score, 0), 4 * 500);
  const byAgent = Object.fromEntries(ratings.map((rating) => [rating.agent, rating]));
  assert.deepEqual(
    ["w", "x", "y", "z"].map((agent) => {
      const { wins, losses, ties } = byAgent[agent]!;
      return [agent, wins, losses, ties];
    }),
    [["w", 0, 1, 0], ["x", 3, 1, 2], ["y", 1, 3, 1], ["z", 2, 1, 1]],
  );
  for (const rating of ratings) {
    assert.ok(rating.std > 0, `${rating.agent}: the order changes the outcome`);
    assert.ok(rating.ci_low <= rating.ci_high, rating.agent);
  }
  assert.deepEqual(
    ratings.map((rating) => rating.score),
    [...ratings.map((rating) => rating.score)].sort((p, q) => q - p),
    "best first",
  );
});

Deno.test("eloTournament() is deterministic for a seed and changes with it", () => {
  const options = { tournaments: 20, bootstrap: 30 };
  const first = eloTournament(MIXED, { ...options, seed: 11 });
  assert.deepEqual(eloTournament(MIXED, { ...options, seed: 11 }), first);
  assert.notDeepEqual(eloTournament(MIXED, { ...options, seed: 12 }), first);
});

Deno.test("eloTournament() resets the ratings and reshuffles the games every tournament", () => {
  // One tournament is one pass over the seed's shuffle of the games.
  const order = [...MIXED];
  shuffleInPlace(order, mulberry32(5));
  const expected = rateGames(order);
  const { ratings } = eloTournament(MIXED, { tournaments: 1, bootstrap: 1, seed: 5 });
  for (const rating of ratings) {
    near(rating.score, expected.get(rating.agent)!, rating.agent);
    assert.equal(rating.std, 0);
  }
  // A single game is played the same way in every tournament.
  const single = eloTournament([{ a: "x", b: "y", winner: "A" }], { tournaments: 25 });
  assert.deepEqual(single.ratings.map(({ agent, score, std }) => ({ agent, score, std })), [
    { agent: "x", score: 516, std: 0 },
    { agent: "y", score: 484, std: 0 },
  ]);
  assert.deepEqual(
    [single.ratings[0]!.ci_low, single.ratings[0]!.ci_high],
    [516, 516],
    "every resample of one game is that game",
  );
});

Deno.test("eloTournament(): the bootstrap interval widens with the confidence", () => {
  const narrow = eloTournament(MIXED, { tournaments: 10, bootstrap: 400, confidence: 0.5 });
  const wide = eloTournament(MIXED, { tournaments: 10, bootstrap: 400, confidence: 0.99 });
  for (const rating of narrow.ratings) {
    const other = wide.ratings.find((candidate) => candidate.agent === rating.agent)!;
    assert.ok(other.ci_low <= rating.ci_low && other.ci_high >= rating.ci_high, rating.agent);
  }
});

Deno.test("eloTournament() rejects an agent playing itself and bad options", () => {
  assert.throws(
    () => eloTournament([...MIXED, { a: "x", b: "x", winner: "A" }]),
    { name: "RangeError", message: /games\[8\]: an agent cannot play itself/ },
  );
  assert.throws(
    () => eloTournament([{ a: "x", b: "y", winner: "D" as "A" }]),
    { name: "RangeError", message: /winner/ },
  );
  assert.throws(() => eloTournament(MIXED, { tournaments: 0 }), /tournaments/);
  assert.throws(() => eloTournament(MIXED, { confidence: 1 }), /confidence/);
  assert.throws(() => eloTournament(MIXED, { k: Number.NaN }), /k:/);
  assert.deepEqual(eloTournament([]), { ratings: [] });
});
