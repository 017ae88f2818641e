import { z } from "zod";

/** USD per million tokens in and out. */
export type ModelPrice = { input: number; output: number };

/** The day the table below was read from the providers' price pages. */
export const PRICES_DATE = "2026-11-25";

/** Workers AI bills neurons: $0.011 per 1,000 (Cloudflare's pricing page). */
export const USD_PER_NEURON = 0.011 / 1000;

/** Workers AI's price from its neurons per million tokens in and out. */
function neurons(input: number, output = 0): ModelPrice {
  return {
    input: Math.round(input * USD_PER_NEURON * 1e4) / 1e4,
    output: Math.round(output * USD_PER_NEURON * 1e4) / 1e4,
  };
}

/**
 * What the models sift names by default cost, per million tokens, as of
 * `PRICES_DATE` (docs/tracing.md lists the sources). `MODEL_PRICES` adds to
 * and overrides it. The offline models run in-process and cost nothing.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "sift-offline": { input: 0, output: 0 },
  "sift-offline-judge": { input: 0, output: 0 },
  "sift-hashed-lexical": { input: 0, output: 0 },
  // OpenAI's list prices (standard tier).
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4o": { input: 2.5, output: 10 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  // Workers AI, converted from the neurons its pricing page gives per million tokens.
  "@cf/meta/llama-3.1-8b-instruct-fp8-fast": neurons(4119, 34868),
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": neurons(26668, 204805),
  "@cf/meta/llama-3.1-8b-instruct": neurons(25608, 75147),
  "@cf/baai/bge-small-en-v1.5": neurons(1841),
  "@cf/baai/bge-base-en-v1.5": neurons(6058),
  "@cf/baai/bge-large-en-v1.5": neurons(18582),
  "@cf/baai/bge-reranker-base": neurons(283),
};

const usdPerMillion = z.number({ error: "must be a number (USD per million tokens)" })
  .finite({ error: "must be a finite number" })
  .min(0, { error: "must be at least 0" });

/** `MODEL_PRICES`: `{"<model>": {"input": <usd>, "output": <usd>}}`, per million tokens. */
export const modelPricesSchema = z.string().transform((text, ctx) => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: 'must be JSON, e.g. {"my-model": {"input": 0.5, "output": 1.5}}',
    });
    return z.NEVER;
  }
  const parsed = z.record(
    z.string().min(1),
    z.strictObject({ input: usdPerMillion, output: usdPerMillion }),
    { error: "must be an object of model names to {input, output}" },
  ).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    ctx.addIssue({ code: "custom", message: `${where}${issue.message}` });
    return z.NEVER;
  }
  return parsed.data;
});
