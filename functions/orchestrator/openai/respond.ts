import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { readRawJson } from "../../../shared/http/validate.ts";
import { LIMITS } from "../../../shared/limits.ts";
import { invalidBody, toOpenAIError } from "./errors.ts";

/**
 * An OpenAI-shaped request body, read within the size limit and checked
 * with `schema`: a mistake is a 400 in OpenAI's words, naming the field.
 */
export async function readOpenAIBody<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readRawJson(c, { maxBytes: LIMITS.bodyBytes }));
  if (!parsed.success) throw invalidBody(parsed.error, schema);
  return parsed.data;
}

/**
 * A whole (not streamed) answer: `shape` turns what `answer` gave into the
 * route's reply; a failure once the request was taken is a 502 in OpenAI's
 * shape, logged unless the client left.
 */
export async function answerWhole<T>(
  c: Context<AppEnv>,
  answer: () => Promise<T>,
  shape: (outcome: T) => unknown,
): Promise<Response> {
  try {
    return c.json(shape(await answer()));
  } catch (error) {
    if (!c.req.raw.signal.aborted) console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return c.json(toOpenAIError(error, { status: 502 }).body, 502);
  }
}
