import { stem, STOP_WORDS } from "../../../shared/text/analyze.ts";
import { CRITERION_BUILDERS } from "./rubric-criteria.ts";
import { QUESTION_WORDS } from "./text.ts";
import type { OfflineTask } from "./types.ts";

/** Cue words in the query, and the criteria each cue calls for. */
const CUES: readonly [RegExp, readonly string[]][] = [
  [/\b(compar\w*|versus|vs\.?|differ\w*|better)(?!\w)/, ["comparative_coverage"]],
  [/\b(latest|recent\w*|new|newest|current\w*|since|today|20[2-9]\d)\b/, ["recency"]],
  [/\b(history|historical\w*|origins?|evolved|evolution|century|centuries|first)\b/, [
    "historical_grounding",
  ]],
  [/\b(should|arguments?|pros|cons|for and against|debated?|opinions?|controversial)\b/, [
    "perspective_balance",
    "evidence",
  ]],
  [/\b(how do i|how to|how can i|set up|setup|configure|install\w*|implement\w*|steps)\b/, [
    "actionability",
    "technical_accuracy",
  ]],
];
// Global, to cut multi-word cues ("set up", "how do i") out of the query before taking its topic.
const CUE_WORDS = new RegExp(CUES.map(([pattern]) => pattern.source).join("|"), "gi");
const MAX_CRITERIA = 5;
const MAX_TOPIC_WORDS = 5;

/** The query of a meta prompt's user message: its last `Query:` line, else the whole message. */
export function queryOf(user: string): string {
  const lines = [...user.matchAll(/^Query:[ \t]*(.*)$/gm)];
  return (lines.at(-1)?.[1] ?? user).trim();
}

/**
 * The query's topic as written (case kept, so names survive), without stop,
 * question or cue words: what the definitions talk about.
 *
 * @example
 * topicOf("How do PostgreSQL and MySQL differ?"); // "PostgreSQL and MySQL"
 */
export function topicOf(query: string): string {
  const all = query.replace(CUE_WORDS, " ").match(/[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu) ?? [];
  const kept = all.filter((word) => {
    const lower = word.toLowerCase();
    return !STOP_WORDS.has(lower) && !QUESTION_WORDS.has(stem(lower));
  }).slice(0, MAX_TOPIC_WORDS);
  if (kept.length === 0) return "the query's subject";
  return kept.length === 1 ? kept[0]! : `${kept.slice(0, -1).join(", ")} and ${kept.at(-1)}`;
}

/**
 * A rubric for a query from its cue words: comparisons want comparative
 * coverage, time words recency, debates balance and evidence, how-tos steps
 * and accuracy; depth and authoritativeness fill in when fewer than three
 * apply. At most five criteria, heaviest first; ties go to the heaviest.
 *
 * @example
 * rubricFor("Latest results on protein folding?").criteria[0]?.name; // "recency"
 */
export function rubricFor(query: string) {
  const lower = query.toLowerCase();
  const topic = topicOf(query);
  const names = new Set(CUES.filter(([pattern]) => pattern.test(lower)).flatMap(([, n]) => n));
  if (names.size < 3) { for (const name of ["depth", "authoritativeness"]) names.add(name); }
  // Stable sort: among equal weights the cue order above decides what the cap drops.
  const criteria = [...names].map((name) => CRITERION_BUILDERS[name]!(topic))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, MAX_CRITERIA);
  return {
    criteria,
    relevance: { definition: `Discusses ${topic} and answers what the query asks.` },
    relevance_threshold: 3,
    tie_break: criteria[0]?.name ?? "retrieval_rank",
  };
}

/** `rubric@1`: always JSON, since the prompt asks for a JSON object in both modes. */
export const rubricTask: OfflineTask = {
  reply({ user }) {
    return JSON.stringify(rubricFor(queryOf(user)));
  },
};
