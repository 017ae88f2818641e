import { stem, STOP_WORDS } from "../../../shared/text/analyze.ts";
import { parseQuestion } from "./tags.ts";
import { identifiers, QUESTION_WORDS } from "./text.ts";
import type { OfflineTask } from "./types.ts";

const DEFAULT_COUNT = 4;
const MAX_WORDS = 19;

/** A small thesaurus for the "other words for the same idea" variation, keyed by stem. */
const SYNONYMS: ReadonlyMap<string, string> = new Map(
  ("fuse:combine fusion:combination combine:merge merge:combine rank:order document:passage " +
    "passage:document retrieve:find retrieval:search search:retrieval query:question " +
    "question:query answer:response model:system improve:enhance evaluate:assess " +
    "evaluation:assessment method:approach approach:method fast:quick large:big small:compact " +
    "reduce:lower increase:raise train:fit result:outcome error:mistake problem:issue " +
    "benefit:advantage advantage:benefit drawback:limitation limitation:drawback score:rating " +
    "relevance:pertinence accuracy:correctness cost:expense")
    .split(" ").map((pair) => pair.split(":") as [string, string]),
);
const FACETS = [
  "overview",
  "examples",
  "advantages and limitations",
  "evaluation",
  "comparison",
  "history",
  "implementation",
  "applications",
  "definition",
];

/** The question's topic words as written (case kept, so identifiers survive). */
function keywords(question: string): string[] {
  const all = question.match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? [];
  const kept = all.filter((word) => {
    const lower = word.toLowerCase();
    return !STOP_WORDS.has(lower) && !QUESTION_WORDS.has(stem(lower));
  });
  return kept.length > 0 ? kept : all;
}

/** A synonym when the table has one, else the word's stem ("rankings" → "ranking"). */
function rewrite(word: string): string {
  if (/\d/.test(word) || word.length <= 3) return word;
  const lower = word.toLowerCase();
  const base = stem(lower);
  const synonym = SYNONYMS.get(base);
  if (synonym) return base === lower ? synonym : `${synonym}s`;
  return base;
}

/** A passage's likely wording: the question turned into the start of its answer. */
function declarative(question: string, keys: readonly string[]): string {
  const plain = question.trim().replace(/[?.!\s]+$/, "");
  const rules: [RegExp, string][] = [
    [/^(?:what|who)\s+(is|are|was|were)\s+(.+)$/i, "$2 $1"],
    [/^how\s+(?:do|does|did|can|could|should|would)\s+(.+)$/i, "$1 by"],
    [/^why\s+(?:do|does|did|is|are|was|were)\s+(.+)$/i, "$1 because"],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(plain)) return plain.replace(pattern, replacement);
  }
  return `${keys.join(" ")} can be described as`;
}

/** A narrower question around the rarest-looking term (an identifier, else the longest word). */
function narrower(question: string, keys: readonly string[]): string {
  const ids = new Set(identifiers(question));
  const rarity = (word: string) => (ids.has(word) ? 1000 : 0) + word.length;
  const rarest = keys.reduce((best, word) => (rarity(word) > rarity(best) ? word : best), keys[0]!);
  const at = keys.indexOf(rarest);
  return `What is ${keys.slice(at, at + 2).join(" ")}?`;
}

const normal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * `count` distinct, deterministic rewrites of `question`, none equal to it:
 * keywords, synonyms, a narrower question, a passage-like phrasing, then
 * facet queries until there are enough.
 *
 * @example
 * queryVariations("How does rank fusion work?", 2); // ["rank fusion work", "order combination works"]
 */
export function queryVariations(question: string, count: number): string[] {
  const keys = keywords(question);
  if (keys.length === 0) keys.push("search");
  const phrase = keys.join(" ");
  const candidates = [
    phrase,
    keys.map(rewrite).join(" "),
    narrower(question, keys),
    declarative(question, keys),
    ...FACETS.map((facet) => `${phrase} ${facet}`),
  ];
  const seen = new Set([normal(question)]);
  const queries: string[] = [];
  for (let i = 0; queries.length < count; i++) {
    const candidate = candidates[i] ?? `${phrase} aspect ${i - candidates.length + 1}`;
    const query = candidate.split(/\s+/).slice(0, MAX_WORDS).join(" ");
    if (seen.has(normal(query))) continue;
    seen.add(normal(query));
    queries.push(query);
  }
  return queries;
}

/** `query-variations@1`: JSON `{"queries": [...]}` when asked for JSON, else numbered lines. */
export const queryVariationsTask: OfflineTask = {
  reply({ system, user, json }) {
    const asked = Number(
      /Write (\d+) different search queries/i.exec(system)?.[1] ?? DEFAULT_COUNT,
    );
    const count = Math.min(Math.max(asked, 1), 20);
    const queries = queryVariations(parseQuestion(user), count);
    // The JSON format instruction counts too: providers without structured outputs get only the prompt.
    if (json || user.includes('{"queries"')) return JSON.stringify({ queries });
    return queries.map((query, i) => `${i + 1}. ${query}`).join("\n");
  },
};
