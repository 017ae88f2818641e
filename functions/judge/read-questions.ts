import { z } from "zod";
import { extractJsonObject } from "../../shared/llm/json.ts";

const questionsObject = z.object({ questions: z.array(z.unknown()) });
const LIST_ITEM = /^\s*(?:\d+\s*[.)]|[-*•]|Q\d*\s*[:.])\s*\S/i;

/**
 * The candidate questions in a synthetic-queries reply, in either output
 * mode: a JSON `{"questions": [...]}` (bare or fenced), else a JSON array of
 * strings, else its numbered, bulleted or `Q1:` lines (emphasis removed),
 * else its plain lines that end with a question mark. Prose around them
 * ("Here are three questions:") is not a question. `cleanQuestions` then
 * strips markers and quotes.
 *
 * @example
 * readQuestions("Sure!\n**1.** What is RRF?\n2. Why k = 60?"); // ["1. What is RRF?", "2. Why k = 60?"]
 */
export function readQuestions(text: string): string[] {
  const object = questionsObject.safeParse(extractJsonObject(text));
  if (object.success) {
    const strings = object.data.questions.filter((question) => typeof question === "string");
    if (strings.length > 0) return strings;
  }
  const array = /\[\s*"[\s\S]*"\s*\]/.exec(text);
  if (array) {
    try {
      const parsed: unknown = JSON.parse(array[0]);
      if (Array.isArray(parsed)) {
        const strings = parsed.filter((item) => typeof item === "string");
        if (strings.length > 0) return strings;
      }
    } catch {
      // Not JSON after all: read the lines.
    }
  }
  const lines = text.split(/\r?\n/).map((line) => line.replace(/\*\*|__|`/g, "").trim())
    .filter(Boolean);
  const listed = lines.filter((line) => LIST_ITEM.test(line));
  if (listed.length > 0) return listed;
  return lines.filter((line) => line.endsWith("?"));
}
