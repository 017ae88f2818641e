import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { MAX_EMBEDDING_DIMENSIONS } from "./embeddings/port.ts";
import { parseFaults, parseLatency } from "./offline-knobs.ts";
import { STEP_NAMES, type StepName } from "./steps/names.ts";
import { corsOriginsSchema } from "./http/cors-origins.ts";
import { trustedProxiesSchema } from "./http/trusted-proxies.ts";
import { type ApiKeyEntry, parseApiKeys } from "./tenants/keys.ts";
import { type ModelPrice, modelPricesSchema } from "./cost/prices.ts";
import { priceTable } from "./cost/cost.ts";
import type { AiGatewayConfig } from "./llm/gateway.ts";

/** `"true"`/`"false"`/`"1"`/`"0"` as a boolean, with a readable error otherwise. */
const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "must be true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(max, { error: `must be at most ${max}` });

const url = z.url({ error: "must be an absolute http(s) URL" }).refine(
  (value) => /^https?:\/\//.test(value),
  { error: "must be an absolute http(s) URL" },
);

/** A Standard Webhooks secret: `whsec_` and base64 of at least 24 bytes. */
const webhookSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, {
  error: "must be whsec_ followed by base64 of at least 24 random bytes",
});

/** A host name as `SOURCE_TRUST` lists it: `arxiv.org`, `www.nature.com`. */
const TRUSTED_HOST =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$/;

/**
 * Every environment variable sift reads. Empty strings count as unset, so a
 * `.env` line like `LLM_API_KEY=` does not switch providers by accident.
 */
const envSchema = z.object({
  PORT: positiveInt(65535).default(8787),
  LLM_BASE_URL: url.optional(),
  LLM_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  LLM_PROVIDER: z.enum(["offline", "openai-compatible", "workers-ai"], {
    error: "must be offline, openai-compatible or workers-ai",
  }).optional(),
  LLM_MODEL: z.string().optional(),
  JUDGE_MODEL: z.string().optional(),
  EMBEDDING_MODEL: z.string().optional(),
  EMBEDDING_DIMENSIONS: positiveInt(MAX_EMBEDDING_DIMENSIONS).optional(),
  LLM_STRUCTURED_OUTPUTS: booleanString.optional(),
  LLM_TIMEOUT_MS: positiveInt(600_000).default(60_000),
  UPSTASH_REDIS_REST_URL: url.optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  UPSTASH_VECTOR_REST_URL: url.optional(),
  UPSTASH_VECTOR_REST_TOKEN: z.string().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/./, {
    error: "must be a postgres:// or postgresql:// connection string",
  }).optional(),
  DATABASE_TIMEOUT_MS: positiveInt(600_000).default(30_000),
  API_KEYS: z.string().optional(),
  SOURCE_TRUST: z.string().optional(),
  CORS_ORIGINS: corsOriginsSchema.optional(),
  TRUSTED_PROXIES: trustedProxiesSchema.optional(),
  RATE_LIMIT_PER_MINUTE: positiveInt(1_000_000).optional(),
  AUTH_FAILURES_PER_MINUTE: positiveInt(1_000_000).optional(),
  CHUNK_SIZE: positiveInt(8000).default(400),
  CHUNK_OVERLAP: z.coerce.number({ error: "must be a number" }).int().min(0, {
    error: "must be at least 0",
  }).default(50),
  DEMO_CORPUS: booleanString.default(true),
  OFFLINE_MODEL_LATENCY: z.string().optional(),
  OFFLINE_MODEL_FAULTS: z.string().optional(),
  OFFLINE_MODEL_SEED: z.coerce.number().int().default(1),
  STEP_TIMEOUT_MS: positiveInt(600_000).default(120_000),
  BODY_READ_TIMEOUT_MS: positiveInt(600_000).default(30_000),
  INDEX_CHECKPOINT_BYTES: positiveInt(2 ** 40).default(32 * 1024 * 1024),
  WEBHOOK_SECRET: webhookSecret.optional(),
  INGEST_WEBHOOK_SECRET: webhookSecret.optional(),
  JOB_RETRY_BASE_MS: positiveInt(3_600_000).default(2000),
  JOB_MAX_ATTEMPTS: positiveInt(50).default(8),
  ALLOW_PRIVATE_CALLBACKS: booleanString.default(false),
  MCP_READ_ONLY: booleanString.default(false),
  EVAL_MAX_STEPS: positiveInt(1_000_000).default(2000),
  EVAL_SLICE_QUESTIONS: positiveInt(1000).default(5),
  FILE_MAX_BYTES: positiveInt(100 * 1024 * 1024).default(10 * 1024 * 1024),
  PDF_MAX_PAGES: positiveInt(100_000).default(500),
  ARCHIVE_MAX_EXPANDED_BYTES: positiveInt(2 ** 31).default(50 * 1024 * 1024),
  FILE_PARSE_TIMEOUT_MS: positiveInt(600_000).default(30_000),
  FILE_PARSE_MEMORY_MB: positiveInt(16_384).default(512),
  EVAL_MAX_DEGRADED_SHARE: z.coerce.number({ error: "must be a number" })
    .min(0, { error: "must be between 0 and 1" })
    .max(1, { error: "must be between 0 and 1" })
    .default(0.1),
  MODEL_PRICES: modelPricesSchema.optional(),
  CLOUDFLARE_ACCOUNT_ID: z.string().regex(/^[0-9a-f]{32}$/i, {
    error: "must be a Cloudflare account id (32 hex characters)",
  }).optional(),
  CLOUDFLARE_API_TOKEN: z.string().optional(),
  CLOUDFLARE_API_BASE_URL: url.default("https://api.cloudflare.com/client/v4"),
  AI_GATEWAY_ID: z.string().regex(/^[\w-]{1,64}$/, { error: "must be a gateway id" }).optional(),
  AI_GATEWAY_TOKEN: z.string().optional(),
  AI_GATEWAY_CACHE_TTL: z.coerce.number({ error: "must be a number of seconds" }).int()
    .min(0, { error: "must be at least 0" }).max(2_592_000, { error: "must be at most 30 days" })
    .optional(),
  AI_GATEWAY_SKIP_CACHE: booleanString.optional(),
  ...Object.fromEntries(STEP_NAMES.map((name) => [`STEP_URL_${name}`, url.optional()])) as Record<
    `STEP_URL_${StepName}`,
    z.ZodOptional<typeof url>
  >,
}).superRefine((env, ctx) => {
  for (
    const [name, parse] of [
      ["OFFLINE_MODEL_LATENCY", parseLatency],
      ["OFFLINE_MODEL_FAULTS", parseFaults],
    ] as const
  ) {
    const value = env[name];
    if (value === undefined) continue;
    try {
      parse(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", path: [name], message: (error as Error).message });
    }
  }
  if (env.SOURCE_TRUST !== undefined) {
    const hosts = env.SOURCE_TRUST.split(",").map((host) => host.trim()).filter(Boolean);
    const bad = hosts.find((host) => !TRUSTED_HOST.test(host));
    if (hosts.length === 0 || bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["SOURCE_TRUST"],
        message: bad === undefined
          ? "must hold at least one host (a comma-separated list)"
          : `"${bad}" is not a host name (e.g. arxiv.org)`,
      });
    }
  }
  if (env.API_KEYS !== undefined && !env.API_KEYS.split(",").some((key) => key.trim())) {
    // `API_KEYS=","` would otherwise leave every route open without a word.
    ctx.addIssue({
      code: "custom",
      path: ["API_KEYS"],
      message: "must hold at least one key (a comma-separated list)",
    });
  }
  try {
    parseApiKeys(env.API_KEYS);
  } catch (error) {
    ctx.addIssue({ code: "custom", path: ["API_KEYS"], message: (error as Error).message });
  }
  const known = env.LLM_PROVIDER === "workers-ai"
    ? WORKERS_AI_EMBEDDING_DIMENSIONS[env.EMBEDDING_MODEL ?? WORKERS_AI_MODELS.embeddings]
    : undefined;
  if (known && env.EMBEDDING_DIMENSIONS !== undefined && env.EMBEDDING_DIMENSIONS !== known) {
    // Workers AI's embedding models have one size each and take no `dimensions`.
    ctx.addIssue({
      code: "custom",
      path: ["EMBEDDING_DIMENSIONS"],
      message: `must be ${known} for ${env.EMBEDDING_MODEL ?? WORKERS_AI_MODELS.embeddings} ` +
        "(or unset)",
    });
  }
  if (env.DATABASE_URL && env.UPSTASH_VECTOR_REST_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["DATABASE_URL"],
      message: "one index at a time: unset DATABASE_URL or UPSTASH_VECTOR_REST_URL",
    });
  }
  if (env.CHUNK_OVERLAP >= env.CHUNK_SIZE) {
    ctx.addIssue({
      code: "custom",
      path: ["CHUNK_OVERLAP"],
      message: "must be smaller than CHUNK_SIZE",
    });
  }
  for (
    const [urlName, tokenName] of [
      ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
      ["UPSTASH_VECTOR_REST_URL", "UPSTASH_VECTOR_REST_TOKEN"],
      ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_API_TOKEN"],
    ] as const
  ) {
    if (Boolean(env[urlName]) !== Boolean(env[tokenName])) {
      ctx.addIssue({
        code: "custom",
        path: [env[urlName] ? tokenName : urlName],
        message: `must be set together with ${env[urlName] ? urlName : tokenName}`,
      });
    }
  }
});

/** Every variable `readConfig` reads, for the commands' `--help` (`deno task serve --help`). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Config = {
  port: number;
  llm: {
    /**
     * `LLM_PROVIDER`; unset, `offline` when neither a key nor a base URL is set.
     * `workers-ai`: the `AI` binding on Workers, Cloudflare's REST API elsewhere.
     */
    provider: "offline" | "openai-compatible" | "workers-ai";
    baseURL?: string;
    apiKey?: string;
    model: string;
    judgeModel: string;
    structuredOutputs: boolean;
    timeoutMs: number;
  };
  embeddings: { model: string; dimensions?: number };
  redis?: { url: string; token: string };
  vector?: { url: string; token: string };
  /** `DATABASE_URL`: the index in Postgres (pgvector); each call bounded by `DATABASE_TIMEOUT_MS`. */
  database?: { url: string; timeoutMs: number };
  apiKeys: string[];
  /** `API_KEYS` with the tenant each key names (none for a bare key): see docs/tenants.md. */
  apiKeyEntries: ApiKeyEntry[];
  /**
   * `SOURCE_TRUST`: hosts (lower case) whose documents, and their subdomains',
   * may score on authority criteria; unset, every document may.
   */
  sourceTrust?: string[];
  /** Web origins whose pages may call sift (`CORS_ORIGINS`); any other `Origin` gets 403. */
  corsOrigins: string[];
  /** `MCP_READ_ONLY`: `/mcp` offers no write tool (no `ingest`). */
  mcpReadOnly: boolean;
  /** Requests per minute per API key (per client address without keys); unset = no limit. */
  rateLimit?: { perMinute: number };
  /** `AUTH_FAILURES_PER_MINUTE` (default 10): wrong keys per client address before 429. */
  authFailuresPerMinute: number;
  /** `TRUSTED_PROXIES`: proxies whose last `X-Forwarded-For` hop is the client (Deno entries). */
  trustedProxies: string[];
  chunking: { size: number; overlap: number };
  offlineModel: { latency?: string; faults?: string; seed: number };
  /** Load sift's own docs into an empty local index. */
  demoCorpus: boolean;
  /** The embedded index checkpoints once its log since the last checkpoint reaches this (and it). */
  indexCheckpointBytes: number;
  /** How long a request body may take to arrive whole (`BODY_READ_TIMEOUT_MS`): then 408. */
  bodyReadTimeoutMs: number;
  /** Where remote steps live (`STEP_URL_<NAME>`) and how long one may take. */
  steps: { urls: Partial<Record<StepName, string>>; timeoutMs: number };
  /** Jobs for webhook callers: how results are signed and how delivery is retried. */
  jobs: {
    webhookSecret?: string;
    retryBaseMs: number;
    maxAttempts: number;
    /** Lets callbacks reach loopback and private hosts over http: local testing only. */
    allowPrivateCallbacks: boolean;
  };
  /** Verifies pushes to `/v1/webhooks/documents`; unset, that route answers 404. */
  ingestWebhookSecret?: string;
  /** Questions × variants one evaluation may schedule. */
  evalMaxSteps: number;
  /** Questions one queue message of an evaluation runs. */
  evalSliceQuestions: number;
  /**
   * Uploaded files: bytes per file (`FILE_MAX_BYTES`), pages per PDF
   * (`PDF_MAX_PAGES`), bytes an archive such as a DOCX may expand to
   * (`ARCHIVE_MAX_EXPANDED_BYTES`), and how long one file's parse may take
   * (`FILE_PARSE_TIMEOUT_MS`) and how much memory its child process may hold
   * (`FILE_PARSE_MEMORY_MB`) on Deno.
   */
  files: {
    maxBytes: number;
    maxPdfPages: number;
    maxExpandedBytes: number;
    parseTimeoutMs: number;
    parseMemoryMb: number;
  };
  /**
   * Above this share of a variant's judgments left out (unreadable) or of
   * its runs that fell back, the evaluation's verdict names no winner.
   */
  evalMaxDegradedShare: number;
  /** USD per million tokens by model: the dated defaults with `MODEL_PRICES` over them. */
  prices: Readonly<Record<string, ModelPrice>>;
  /** AI Gateway's knobs, sent as `cf-aig-*` headers on provider calls; unset, none are sent. */
  aiGateway?: AiGatewayConfig;
  /** Workers AI over Cloudflare's REST API (Deno); on Workers the `AI` binding needs none. */
  cloudflare?: { accountId: string; apiToken: string; apiBaseUrl: string };
};

/** The models each provider uses unless `LLM_MODEL`, `JUDGE_MODEL`, `EMBEDDING_MODEL` say otherwise. */
const OFFLINE_MODELS = {
  chat: "sift-offline",
  judge: "sift-offline-judge",
  embeddings: "sift-hashed-lexical",
};
const OPENAI_MODELS = {
  chat: "gpt-4o-mini",
  judge: "gpt-4o",
  embeddings: "text-embedding-3-small",
};
/** Workers AI's embedding models and their one size each. */
export const WORKERS_AI_EMBEDDING_DIMENSIONS: Record<string, number> = {
  "@cf/baai/bge-small-en-v1.5": 384,
  "@cf/baai/bge-base-en-v1.5": 768,
  "@cf/baai/bge-large-en-v1.5": 1024,
};
export const WORKERS_AI_MODELS = {
  chat: "@cf/meta/llama-3.1-8b-instruct-fp8-fast",
  judge: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  embeddings: "@cf/baai/bge-base-en-v1.5",
};

/**
 * Parses the environment into a typed `Config`. Called per request (env only
 * exists per request on Workers) and once at start-up so a bad value stops the
 * server with the variable's name and the reason.
 *
 * @example
 * const config = readConfig({ LLM_MODEL: "gpt-4o" });
 * config.llm.provider; // "offline"
 */
export function readConfig(env: Record<string, unknown>): Config {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (typeof value === "string" && value.trim() !== "") cleaned[key] = value.trim();
  }
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      `${issue.path.join(".") || "environment"}: ${issue.message}`
    );
    throw new ConfigError(`Invalid environment: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  const apiKey = e.LLM_API_KEY ?? e.OPENAI_API_KEY;
  const provider = e.LLM_PROVIDER ?? (!apiKey && !e.LLM_BASE_URL ? "offline" : "openai-compatible");
  const offline = provider === "offline";
  const defaults = offline
    ? OFFLINE_MODELS
    : provider === "workers-ai"
    ? WORKERS_AI_MODELS
    : OPENAI_MODELS;
  const embeddingModel = offline ? defaults.embeddings : e.EMBEDDING_MODEL ?? defaults.embeddings;
  return {
    port: e.PORT,
    llm: {
      provider,
      ...(e.LLM_BASE_URL ? { baseURL: e.LLM_BASE_URL } : {}),
      ...(apiKey ? { apiKey } : {}),
      model: offline ? defaults.chat : e.LLM_MODEL ?? defaults.chat,
      // The judge defaults to another model so no model grades its own answers.
      judgeModel: e.JUDGE_MODEL ?? defaults.judge,
      // Workers AI's models answer the papers' plain-text formats more reliably than json_schema.
      structuredOutputs: e.LLM_STRUCTURED_OUTPUTS ?? provider !== "workers-ai",
      timeoutMs: e.LLM_TIMEOUT_MS,
    },
    embeddings: {
      model: embeddingModel,
      // Workers AI's models take no `dimensions`: their size is their own.
      ...(e.EMBEDDING_DIMENSIONS && provider !== "workers-ai"
        ? { dimensions: e.EMBEDDING_DIMENSIONS }
        : {}),
    },
    ...(e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN
      ? { redis: { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN } }
      : {}),
    ...(e.UPSTASH_VECTOR_REST_URL && e.UPSTASH_VECTOR_REST_TOKEN
      ? { vector: { url: e.UPSTASH_VECTOR_REST_URL, token: e.UPSTASH_VECTOR_REST_TOKEN } }
      : {}),
    ...(e.DATABASE_URL
      ? { database: { url: e.DATABASE_URL, timeoutMs: e.DATABASE_TIMEOUT_MS } }
      : {}),
    apiKeys: parseApiKeys(e.API_KEYS).map((entry) => entry.key),
    apiKeyEntries: parseApiKeys(e.API_KEYS),
    ...(e.SOURCE_TRUST
      ? {
        sourceTrust: e.SOURCE_TRUST.split(",").map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      }
      : {}),
    corsOrigins: e.CORS_ORIGINS ?? [],
    mcpReadOnly: e.MCP_READ_ONLY,
    ...(e.RATE_LIMIT_PER_MINUTE ? { rateLimit: { perMinute: e.RATE_LIMIT_PER_MINUTE } } : {}),
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE ?? 10,
    chunking: { size: e.CHUNK_SIZE, overlap: e.CHUNK_OVERLAP },
    offlineModel: {
      ...(e.OFFLINE_MODEL_LATENCY ? { latency: e.OFFLINE_MODEL_LATENCY } : {}),
      ...(e.OFFLINE_MODEL_FAULTS ? { faults: e.OFFLINE_MODEL_FAULTS } : {}),
      seed: e.OFFLINE_MODEL_SEED,
    },
    demoCorpus: e.DEMO_CORPUS,
    indexCheckpointBytes: e.INDEX_CHECKPOINT_BYTES,
    bodyReadTimeoutMs: e.BODY_READ_TIMEOUT_MS,
    trustedProxies: e.TRUSTED_PROXIES ?? [],
    steps: {
      urls: Object.fromEntries(
        STEP_NAMES.flatMap((name) => {
          const base = e[`STEP_URL_${name}`];
          return base ? [[name, base.replace(/\/+$/, "")]] : [];
        }),
      ),
      timeoutMs: e.STEP_TIMEOUT_MS,
    },
    jobs: {
      ...(e.WEBHOOK_SECRET ? { webhookSecret: e.WEBHOOK_SECRET } : {}),
      retryBaseMs: e.JOB_RETRY_BASE_MS,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
      allowPrivateCallbacks: e.ALLOW_PRIVATE_CALLBACKS,
    },
    ...(e.INGEST_WEBHOOK_SECRET ? { ingestWebhookSecret: e.INGEST_WEBHOOK_SECRET } : {}),
    evalMaxSteps: e.EVAL_MAX_STEPS,
    evalSliceQuestions: e.EVAL_SLICE_QUESTIONS,
    files: {
      maxBytes: e.FILE_MAX_BYTES,
      maxPdfPages: e.PDF_MAX_PAGES,
      maxExpandedBytes: e.ARCHIVE_MAX_EXPANDED_BYTES,
      parseTimeoutMs: e.FILE_PARSE_TIMEOUT_MS,
      parseMemoryMb: e.FILE_PARSE_MEMORY_MB,
    },
    evalMaxDegradedShare: e.EVAL_MAX_DEGRADED_SHARE,
    prices: priceTable(e.MODEL_PRICES),
    ...(e.AI_GATEWAY_ID || e.AI_GATEWAY_TOKEN || e.AI_GATEWAY_CACHE_TTL !== undefined ||
        e.AI_GATEWAY_SKIP_CACHE !== undefined
      ? {
        aiGateway: {
          ...(e.AI_GATEWAY_ID ? { id: e.AI_GATEWAY_ID } : {}),
          ...(e.AI_GATEWAY_TOKEN ? { token: e.AI_GATEWAY_TOKEN } : {}),
          ...(e.AI_GATEWAY_CACHE_TTL !== undefined
            ? { cacheTtlSeconds: e.AI_GATEWAY_CACHE_TTL }
            : {}),
          ...(e.AI_GATEWAY_SKIP_CACHE !== undefined ? { skipCache: e.AI_GATEWAY_SKIP_CACHE } : {}),
        },
      }
      : {}),
    ...(e.CLOUDFLARE_ACCOUNT_ID && e.CLOUDFLARE_API_TOKEN
      ? {
        cloudflare: {
          accountId: e.CLOUDFLARE_ACCOUNT_ID,
          apiToken: e.CLOUDFLARE_API_TOKEN,
          apiBaseUrl: e.CLOUDFLARE_API_BASE_URL.replace(/\/+$/, ""),
        },
      }
      : {}),
  };
}
