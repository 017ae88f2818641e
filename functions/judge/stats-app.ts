import type { Hono } from "hono";
import { z } from "zod";
import { ELO_DEFAULTS, eloTournament } from "../../shared/metrics/elo.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson } from "../../shared/http/validate.ts";
import { blandAltman } from "../../shared/metrics/agreement.ts";
import { kendallTauBTest, spearmanRhoTest } from "../../shared/metrics/significance.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { agreementResponseSchema, tournamentResponseSchema } from "./responses.ts";

/**
 * Bounds of the judge's statistics routes. A tournament's cost is one rating
 * update per game per pass (tournaments + bootstrap resamples), about 30 ns
 * each: the cap keeps a request near a third of a second of CPU on Workers.
 */
export const JUDGE_STATS_LIMITS = {
  bodyBytes: 8 * 1024 * 1024,
  games: 100_000,
  agents: 1_000,
  agentChars: 200,
  tournaments: 5_000,
  bootstrap: 5_000,
  ratingUpdates: 10_000_000,
  agreementValues: 100_000,
} as const;

const L = JUDGE_STATS_LIMITS;

const agentSchema = z.string({ error: "must be an agent name (a string)" })
  .min(1, { error: "must not be empty" })
  .max(L.agentChars, { error: `must be at most ${L.agentChars} characters` });

const gameSchema = z.strictObject({
  a: agentSchema,
  b: agentSchema,
  winner: z.enum(["A", "B", "C"], { error: 'must be "A", "B" or "C" (a tie), or null' }).nullable()
    .meta({
      description: "null: an unreadable verdict (as /v1/judge/pairwise returns it), left out",
    }),
}, { error: "must be a game {a, b, winner}" }).refine((game) => game.a !== game.b, {
  path: ["b"],
  error: "must differ from a: an agent cannot play itself",
});

const wholeNumber = (min: number, max: number) =>
  z.number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

const tournamentSchema = z.strictObject({
  games: z.array(gameSchema, { error: "must be an array of games" })
    .min(1, { error: "must hold at least one game" })
    .max(L.games, { error: `must hold at most ${L.games} games` }),
  tournaments: wholeNumber(1, L.tournaments).default(ELO_DEFAULTS.tournaments),
  k: z.number({ error: "must be a number" })
    .gt(0, { error: "must be greater than 0" })
    .max(1000, { error: "must be at most 1000" })
    .default(ELO_DEFAULTS.k),
  initial: z.number({ error: "must be a number" })
    .min(-1e6, { error: "must be at least -1000000" })
    .max(1e6, { error: "must be at most 1000000" })
    .default(ELO_DEFAULTS.initial),
  seed: wholeNumber(0, 2 ** 32 - 1).default(ELO_DEFAULTS.seed),
  bootstrap: wholeNumber(1, L.bootstrap).default(ELO_DEFAULTS.bootstrap),
  confidence: z.number({ error: "must be a number" })
    .gt(0, { error: "must be between 0 and 1" })
    .lt(1, { error: "must be between 0 and 1" })
    .default(ELO_DEFAULTS.confidence),
});

const scoresSchema = z.array(z.number({ error: "must be a number or null" }).nullable(), {
  error: "must be an array of numbers (null for a judgment with no score)",
})
  .min(2, { error: "must hold at least 2 values" })
  .max(L.agreementValues, { error: `must hold at most ${L.agreementValues} values` });

const agreementSchema = z.strictObject({ x: scoresSchema, y: scoresSchema }).refine(
  (body) => body.x.length === body.y.length,
  { path: ["y"], error: "must have as many values as x" },
);

/**
 * `POST /v1/judge/tournament` (Elo ratings from pairwise games) and
 * `POST /v1/judge/agreement` (a judge against people: Kendall tau-b,
 * Spearman rho, Bland-Altman). Pure computation: no model, no index.
 */
export function mountJudgeStats(app: Hono<AppEnv>): void {
  app.post(
    "/v1/judge/tournament",
    describe({
      tag: "judge",
      summary: "Elo ratings from pairwise games",
      description: "`E_A = 1 / (1 + 10^((R_B − R_A)/400))`, a tie scores 0.5; ratings reset and " +
        "games reshuffled (seeded) for each tournament; intervals from bootstrap resamples. " +
        `Games × (tournaments + bootstrap) is at most ${L.ratingUpdates} rating updates.`,
      body: tournamentSchema,
      responses: { 200: json("Ratings, best first", tournamentResponseSchema) },
    }),
    async (c) => {
      const body = await readJson(c, tournamentSchema, { maxBytes: L.bodyBytes });
      const updates = body.games.length * (body.tournaments + body.bootstrap);
      if (updates > L.ratingUpdates) {
        throw new InvalidRequestError(
          `tournaments: ${body.games.length} games × (${body.tournaments} tournaments + ` +
            `${body.bootstrap} bootstrap resamples) is ${updates} rating updates, above the limit ` +
            `of ${L.ratingUpdates}; lower tournaments or bootstrap, or send fewer games`,
        );
      }
      const agents = new Set(body.games.flatMap((game) => [game.a, game.b]));
      if (agents.size > L.agents) {
        throw new InvalidRequestError(`games: must involve at most ${L.agents} distinct agents`);
      }
      const { games, ...options } = body;
      // An unreadable game is no game: left out, never a tie, and counted.
      const played = games.flatMap(({ a, b, winner }) => winner ? [{ a, b, winner }] : []);
      return c.json({
        ...eloTournament(played, options),
        excluded: games.length - played.length,
      });
    },
  );

  app.post(
    "/v1/judge/agreement",
    describe({
      tag: "judge",
      summary: "A judge against people: Kendall tau-b, Spearman rho, Bland-Altman",
      description: "Tau-b with ties corrected, Spearman on average ranks, bias = mean(x − y) " +
        "± 1.96 · sample sd; null, with a note, where a rank correlation is undefined. " +
        "`p_values` are two-sided, as SciPy's kendalltau (exact without ties up to 33 pairs, " +
        "else the tie-corrected normal approximation) and spearmanr (t on n − 2 degrees of freedom).",
      body: agreementSchema,
      responses: { 200: json("The agreement", agreementResponseSchema) },
    }),
    async (c) => {
      const body = await readJson(c, agreementSchema, { maxBytes: L.bodyBytes });
      // A pair with a null (a judgment with no score) is left out, and counted.
      const pairs = body.x.flatMap((value, i) => {
        const other = body.y[i];
        return value === null || other === null || other === undefined ? [] : [[value, other]];
      });
      if (pairs.length < 2) {
        throw new InvalidRequestError("y: at least 2 pairs must have both values (not null)");
      }
      const x = pairs.map(([value]) => value!);
      const y = pairs.map(([, value]) => value!);
      const kendall = kendallTauBTest(x, y);
      const spearman = spearmanRhoTest(x, y);
      const orNull = (value: number) => Number.isNaN(value) ? null : value;
      // JSON has no NaN: an undefined correlation is null, and `notes` says why.
      const constant = (["x", "y"] as const).filter((name) => isConstant({ x, y }[name]));
      const notes = constant.length === 0 ? [] : [
        `kendall_tau_b and spearman_rho are null: ${constant.join(" and ")} ` +
        `${constant.length === 1 ? "is" : "are"} constant, so a rank correlation is undefined`,
      ];
      return c.json({
        kendall_tau_b: orNull(kendall.statistic),
        spearman_rho: orNull(spearman.statistic),
        p_values: {
          kendall_tau_b: orNull(kendall.p_value),
          spearman_rho: orNull(spearman.p_value),
        },
        bland_altman: blandAltman(x, y),
        notes,
        excluded: body.x.length - pairs.length,
      });
    },
  );
}

function isConstant(values: readonly number[]): boolean {
  return values.every((value) => value === values[0]);
}
