import type { EloRating, WinRateMatrix } from "../types.ts";
import { escapeHtml as e, formatNumber, formatPercent } from "./escape.ts";

/** Win-rate averages closer than this (0.1 point) are equal; Elo scores closer than 1 are. */
const SAME_RATE = 0.001;
const SAME_ELO = 1;

export type Disagreement = { a: string; b: string; rate: [number, number]; elo: [number, number] };

const direction = (difference: number, same: number) =>
  Math.abs(difference) < same ? 0 : Math.sign(difference);

/**
 * Pairs of variants that the win-rate average and Elo order differently:
 * one puts a first and the other b, or one separates them and the other
 * ties them.
 */
export function rankingDisagreements(matrix: WinRateMatrix, elo: EloRating[]): Disagreement[] {
  const score = new Map(elo.map((rating) => [rating.agent, rating.score]));
  const rated = matrix.agents.flatMap((agent, i) => {
    const [rate, rating] = [matrix.average[i], score.get(agent)];
    return rate === null || rate === undefined || rating === undefined
      ? []
      : [{ agent, rate, rating }];
  });
  const found: Disagreement[] = [];
  rated.forEach((a, i) =>
    rated.slice(i + 1).forEach((b) => {
      if (direction(a.rate - b.rate, SAME_RATE) !== direction(a.rating - b.rating, SAME_ELO)) {
        found.push({ a: a.agent, b: b.agent, rate: [a.rate, b.rate], elo: [a.rating, b.rating] });
      }
    })
  );
  return found;
}

/** Why the win-rate table and the Elo ranking disagree, where they do. */
export function rankingNote(matrix: WinRateMatrix, elo: EloRating[]): string {
  const pairs = rankingDisagreements(matrix, elo);
  if (pairs.length === 0) {
    return matrix.total_games
      ? `<p class="note ranking-note">Win rate and Elo order the variants the same way.</p>`
      : "";
  }
  const record = new Map(elo.map((r) => [r.agent, `${r.wins}–${r.losses}–${r.ties}`]));
  const items = pairs.slice(0, 6).map(({ a, b, rate, elo: [ea, eb] }) =>
    `<li><b>${e(a)}</b> ${formatPercent(rate[0])} vs <b>${e(b)}</b> ${formatPercent(rate[1])} ` +
    `win rate, but Elo ${formatNumber(ea, 1)} vs ${formatNumber(eb, 1)} ` +
    `(wins–losses–ties: ${e(record.get(a))} vs ${e(record.get(b))})</li>`
  ).join("");
  const more = pairs.length > 6 ? `<li>and ${pairs.length - 6} more pair(s)</li>` : "";
  return `<div class="note ranking-note"><p>Win rate and Elo rank these pairs differently:</p>` +
    `<ul>${items}${more}</ul><p>Why: a cell's win rate counts a tie like a loss (wins over all ` +
    `games, ties included), and the AVG column weighs every opponent the same. Elo scores a tie ` +
    `as half a win, and a win against a strong variant moves it more than one against a weak ` +
    `one. So a variant that ties where another loses gets a higher Elo for the same win rate.` +
    `</p></div>`;
}
