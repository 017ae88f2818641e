import type { Context, Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import { z } from "zod";
import { errorBodySchema } from "../responses.ts";
import { describe, json } from "./openapi.ts";
import type { AppEnv } from "./app-env.ts";

/** An OpenAPI 3.1 document, as far as sift reads or merges one. */
export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  [field: string]: unknown;
};

/** Adds to an app's own document what it serves some other way (the orchestrator's forwards). */
export type ExtendDocument = (
  c: Context<AppEnv>,
  own: OpenApiDocument,
) => Promise<OpenApiDocument>;

const TAGS = [
  ["service", "Health and this document, on every deployment"],
  ["orchestrator", "The whole pipeline, composed from the other functions"],
  ["embed", "Ingest and OpenAI-compatible embeddings"],
  ["fuse", "Search and RAG-Fusion"],
  ["generate-rubric", "REBEL's first turn: a rubric from the query alone"],
  ["rerank", "REBEL reranking, native and Cohere v2-compatible"],
  ["answer", "Grounded answers with [n] citations"],
  ["judge", "RAGElo and REBEL evaluators, Elo tournaments, agreement statistics"],
  ["evaluate", "Batch evaluations of pipeline variants"],
] as const;

/** What every sift document says besides its paths. */
const DOCUMENTATION = {
  info: {
    title: "sift",
    version: "1.0.0",
    description: "Retrieval-augmented generation that ranks passages by more than relevance. " +
      "Errors are `{error: {type, message}}`; a 400 names the field.",
  },
  // Relative: the document is right wherever it is served from.
  servers: [{ url: "/" }],
  security: [{ bearer: [] }],
  tags: TAGS.map(([name, description]) => ({ name, description })),
  components: {
    securitySchemes: {
      bearer: {
        type: "http" as const,
        scheme: "bearer",
        description: "One of the server's `API_KEYS`; not checked when `API_KEYS` is unset",
      },
    },
    responses: { Error: json("An error", errorBodySchema) },
  },
};

const documentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

/** Every route of an app, its lazily loaded mounts' too (server.ts). */
export type RoutesOf = () => Promise<Hono<AppEnv>["routes"]>;

/**
 * The document of every described route on `app` (or of `routes`, when its
 * mounts load lazily), built on the first call (not at start-up: a Worker
 * that is never asked pays nothing), then reused.
 */
export function documentOf(app: Hono<AppEnv>, routes?: RoutesOf): () => Promise<OpenApiDocument> {
  let built: Promise<OpenApiDocument> | undefined;
  // hono-openapi reads nothing of the app but its `routes`.
  const source = async () => routes ? { routes: await routes() } as unknown as Hono<AppEnv> : app;
  return () => {
    built ??= source().then((hono) =>
      generateSpecs(hono, { documentation: DOCUMENTATION, excludeStaticFile: false }) as Promise<
        OpenApiDocument
      >
    )
      .catch((error) => {
        built = undefined;
        throw error;
      });
    return built;
  };
}

/** `GET /openapi.json`: this app's document, extended when the app forwards routes. */
export function mountOpenApi(
  app: Hono<AppEnv>,
  extend?: ExtendDocument,
  routes?: RoutesOf,
): void {
  const own = documentOf(app, routes);
  app.get(
    "/openapi.json",
    describe({
      tag: "service",
      summary: "This document",
      description: "OpenAPI 3.1, generated from the schemas the routes validate with.",
      responses: { 200: json("The OpenAPI document", documentSchema) },
    }),
    async (c) => c.json(extend ? await extend(c, await own()) : await own()),
  );
}
