/**
 * Revisions read as a person reads them (docs/model-replies.md): a value a
 * reply commits to after it stated one wins, labelled or not ("…so I'd lower
 * that to 0", "make it a 1", "accuracy should be 1", "Doc 2 deserves a 3");
 * a conditional or hypothetical one ("if the user cared about X, it would
 * be a 2", "had it kept the caveat…") never overrides a stated one.
 */

/** A value a revision commits to: a number with its own scale, or a yes / no. */
export const REVISED_VALUE = String
  .raw`(\d+(?:[.,]\d+)?|\.\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|yes|no)(?:\s*(?:\/|out\s+of)\s*(\d+(?:\.\d+)?)|\s*(%))?(?![\w.]*\d)`;

/** What a revision may be about, besides the labels a reader names. */
const PRONOUN = String
  .raw`it|that|this|which|my\s+(?:score|rating|grade|answer|verdict)|the\s+(?:score|rating|grade)`;

/** The ways of committing to a new value, around `{subject}`. */
const COMMITS = [
  // "I'd lower that to 0", "change that to yes", "raise accuracy to 2"
  String
    .raw`\b(?:lower|rais|bump|bring|drop|reduc|increas|chang|adjust|revis|downgrad|upgrad|mov|set|updat|correct|cut)\w*\s+(?:{subject})\s+(?:(?:score|rating|grade)\s+)?to\s+(?:an?\s+)?${REVISED_VALUE}`,
  // Any verb that moves it up or down: "knock it down to 1", "bring it down to 0.7", "dial that back to 2"
  String
    .raw`\b[a-z]+\s+(?:{subject})\s+(?:(?:score|rating|grade)\s+)?(?:down|up|back)\s+to\s+(?:an?\s+)?${REVISED_VALUE}`,
  // "make it a 1", "which should make it a 1"
  String.raw`\bmake\s+(?:{subject})\s+(?:an?\s+)?${REVISED_VALUE}`,
  // "it should be 4", "accuracy should be 1", "the score should be 0"
  String
    .raw`\b(?:{subject})\s+(?:should|must|ought\s+to|needs?\s+to)\s+(?:really\s+|only\s+|instead\s+)?(?:be|get|receive)\s+(?:only\s+)?(?:an?\s+)?${REVISED_VALUE}`,
  // "Doc 2 deserves a 3", "it merits only a 1"
  String
    .raw`\b(?:{subject})\s+(?:really\s+|only\s+)?(?:deserves|merits|earns|warrants)\s+(?:only\s+)?(?:an?\s+)?${REVISED_VALUE}`,
];

/** A clause that supposes rather than states: "if …", "unless …", "had it …", "it would be …". */
const CONDITIONAL =
  /\b(?:if|unless|were\s+(?:it|the|they|he|she|I|you|we)|had\s+(?:it|the|they|he|she|I|you|we)|would(?:\s+not|n't)?\s+(?:be|have|win|make)|could\s+be|might\s+be|in\s+case|otherwise)\b|如果|假如|もし|만약/i;

/** Sentences (and clauses) with their place in `text`; a decimal point ends none. */
function clausesOf(text: string): { text: string; at: number }[] {
  const clauses: { text: string; at: number }[] = [];
  let at = 0;
  for (
    const end of text.matchAll(
      /[.!?](?=\s|$)|\n|[;—–]|,\s+(?=(?:but|though|although|if|unless|it\s+would|this\s+would|which\s+would)\b)/gi,
    )
  ) {
    clauses.push({ text: text.slice(at, end.index + end[0].length), at });
    at = end.index + end[0].length;
  }
  clauses.push({ text: text.slice(at), at });
  return clauses;
}

/** Whether a clause supposes rather than states. */
export function isConditional(clause: string): boolean {
  return CONDITIONAL.test(clause);
}

/**
 * The text without its conditional clauses, each replaced by a space (so
 * places stay apart): read first, so a hypothetical never overrides a
 * stated verdict.
 *
 * @example
 * withoutConditionals("[[B]]\nIf the user wanted brevity, [[A]] would be better."); // "[[B]]\n …"
 */
export function withoutConditionals(text: string): string {
  return clausesOf(text).map((clause) => isConditional(clause.text) ? " " : clause.text).join("");
}

/** One revision a reply commits to: the value's parts as written, and where it stands. */
export type Revision = { value: string; over: string | undefined; percent: boolean; at: number };

/**
 * Every revision committed in `text` about one of `subjects` (labels such
 * as `accuracy`, or document names), and, with `pronouns`, about "it",
 * "that", "the score"; conditional clauses commit nothing. In order.
 *
 * @example
 * revisionsIn("Score: 2. It is off-topic, so I'd lower that to 0.", ["score"], true); // [{ value: "0", … }]
 */
export function revisionsIn(
  text: string,
  subjects: readonly string[],
  pronouns: boolean,
): Revision[] {
  const named = subjects.map((subject) => subject.replace(/[_\s]+/g, String.raw`[\s_]+`));
  const subject = [...named, ...(pronouns ? [PRONOUN] : [])].join("|");
  if (subject === "") return [];
  const patterns = COMMITS.map((commit) => new RegExp(commit.replace("{subject}", subject), "gi"));
  const found: Revision[] = [];
  for (const clause of clausesOf(text)) {
    if (isConditional(clause.text)) continue;
    for (const pattern of patterns) {
      for (const match of clause.text.matchAll(pattern)) {
        found.push({
          value: match[1]!,
          over: match[2],
          percent: match[3] === "%",
          at: clause.at + match.index,
        });
      }
    }
  }
  return found.sort((x, y) => x.at - y.at);
}

/** Taking a value back with none after it: "I'm not sure about that any more", "scratch that". */
const RETRACTION =
  /\b(?:not\s+(?:so\s+)?sure\s+(?:about\s+)?(?:that|this|it)|I\s+take\s+(?:that|it)\s+back|scratch\s+that|disregard\s+(?:that|my)\s+(?:score|rating|answer))\b/i;

/** Where the last retraction in `text` stands, or -1. */
export function lastRetractionAt(text: string): number {
  let at = -1;
  for (const clause of clausesOf(text)) if (RETRACTION.test(clause.text)) at = clause.at;
  return at;
}
