/**
 * HELD OUT (issue #42): replies written from the outside in, in styles the
 * first two rounds did not name, before the readers changed. Never tuned on:
 * when one is misread, fix the reading rule it breaks and test the rule with
 * wording of your own in the tuned corpus.
 */
import type { ScoredReply } from "../score.ts";
import { freshReplies } from "./fresh.ts";
import { languageReplies } from "./languages.ts";
import { notationReplies } from "./notations.ts";
import { reasoningReplies } from "./reasoning.ts";
import { refusalAndQueryReplies } from "./refusals-and-queries.ts";
import { revisionReplies } from "./revisions.ts";

/** The third round's held-out replies, by family of style. */
export const outsideInFamilies: Readonly<Record<string, readonly ScoredReply[]>> = {
  reasoning: reasoningReplies,
  languages: languageReplies,
  notations: notationReplies,
  revisions: revisionReplies,
  "refusals and queries": refusalAndQueryReplies,
  "written after the change": freshReplies,
};

export const outsideInReplies: ScoredReply[] = Object.values(outsideInFamilies).flat();
