import { extractiveAnswer } from "./answer.ts";
import { type SchemaValueContext, valueOf } from "./schema-value.ts";
import { parseDocuments, parseQuestion } from "./tags.ts";
import { splitSentences } from "./text.ts";
import type { OfflineTask } from "./types.ts";

const SCHEMA = /<schema name="[^"]*">\n([\s\S]*?)\n<\/schema>/;

/** The schema the prompt carries (its `<` escaped as `\u003c`, which JSON reads back). */
function schemaIn(user: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(SCHEMA.exec(user)?.[1] ?? "");
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * `answer-structured@1`: the extractive answer poured into the caller's
 * schema (`schema-value.ts`), as one JSON object: the same object for the
 * same documents, question and schema. Documents that do not answer give the
 * emptiest values the schema allows, as the prompt asks a real model to.
 */
export const answerStructuredTask: OfflineTask = {
  reply({ user }) {
    const answer = extractiveAnswer(parseQuestion(user), parseDocuments(user)) ?? "";
    const root = schemaIn(user);
    const context: SchemaValueContext = { answer, sentences: splitSentences(answer), root };
    return JSON.stringify(valueOf(root, context));
  },
};
