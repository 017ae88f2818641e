import { z } from "zod";
import { InvalidRequestError } from "../../shared/errors.ts";
import { describeIssues } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import type { EvalQuestion } from "./types.ts";

/** The most questions one evaluation takes (a run is questions × variants × judge calls). */
export const MAX_EVAL_QUESTIONS = 2000;

/** One question: `id` is optional in files (the line number stands in). */
export const evalQuestionSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String).pipe(
    z.string().min(1).max(200, { error: "must be at most 200 characters" }),
  ).optional(),
  question: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" })
    .max(LIMITS.queryChars, { error: `must be at most ${LIMITS.queryChars} characters` }),
  reference_answer: z.string().max(20_000).nullable().optional(),
  target_doc: z.string().max(200).nullable().optional(),
});

/** Gives every question an id (`q<line>` when it has none) and rejects repeated ids. */
export function withIds(questions: z.infer<typeof evalQuestionSchema>[]): EvalQuestion[] {
  const seen = new Set<string>();
  return questions.map((question, index) => {
    const id = question.id ?? `q${String(index + 1).padStart(3, "0")}`;
    if (seen.has(id)) throw new InvalidRequestError(`questions.${index}.id: "${id}" is repeated`);
    seen.add(id);
    return {
      id,
      question: question.question,
      ...(question.reference_answer != null ? { reference_answer: question.reference_answer } : {}),
      // null is kept: it marks a question the corpus does not answer.
      ...(question.target_doc !== undefined ? { target_doc: question.target_doc } : {}),
    };
  });
}

/**
 * Questions from `.jsonl` text (`question`, `reference_answer?`,
 * `target_doc?`, `id?` per line); a bad line is named by its number.
 *
 * @example
 * parseQuestionsJsonl('{"question": "What is BERT?", "target_doc": "bert"}\n', "inline");
 */
export function parseQuestionsJsonl(text: string, source: string): EvalQuestion[] {
  const parsed = text.split("\n").flatMap((line, index) => {
    if (!line.trim()) return [];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InvalidRequestError(`${source}:${index + 1}: not valid JSON`);
    }
    const result = evalQuestionSchema.safeParse(value);
    if (!result.success) {
      throw new InvalidRequestError(`${source}:${index + 1}: ${describeIssues(result.error)}`);
    }
    return [result.data];
  });
  if (parsed.length === 0) throw new InvalidRequestError(`${source}: holds no questions`);
  if (parsed.length > MAX_EVAL_QUESTIONS) {
    throw new InvalidRequestError(`${source}: more than ${MAX_EVAL_QUESTIONS} questions`);
  }
  return withIds(parsed);
}
