import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { readRawJson, validateOpenAI } from "../../../shared/http/validate.ts";
import { LIMITS } from "../../../shared/limits.ts";

/** A JSON body, checked against `schema`, what is wrong said in OpenAI's words with `param`. */
export async function readOpenAIJson<T>(c: Context<AppEnv>, schema: z.ZodType<T>): Promise<T> {
  return validateOpenAI(schema, await readRawJson(c, { maxBytes: LIMITS.bodyBytes }));
}
