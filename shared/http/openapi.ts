import type { MiddlewareHandler } from "hono";
import { describeRoute, resolver } from "hono-openapi";
import { z } from "zod";

/**
 * Route descriptions for `GET /openapi.json`, written next to each route and
 * built from the zod schemas its handler validates with. Nothing is converted
 * here: hono-openapi turns the schemas into JSON Schema when the document is
 * first asked for.
 *
 * @example
 * app.post("/v1/search", describe({
 *   tag: "fuse",
 *   summary: "Search one namespace",
 *   body: searchSchema,
 *   responses: { 200: json("Best first", searchResponseSchema) },
 * }), handler);
 */

/** Media types and their schemas: zod through `resolver`, or plain JSON Schema for non-JSON bodies. */
type Content = Record<string, { schema: ReturnType<typeof resolver> | Record<string, unknown> }>;

/** One response of a route: what its status means and, for 2xx, its body. */
export type ResponseDoc = { description: string; content?: Content };

export type RouteDoc = {
  /** The function that owns the route. */
  tag: string;
  summary: string;
  description?: string;
  /** The JSON body: the same schema the handler validates with. */
  body?: z.ZodType;
  /** A `multipart/form-data` body, as JSON Schema (file uploads): beside `body`, or alone. */
  form?: Record<string, unknown>;
  /** Query parameters, each property one parameter. */
  query?: z.ZodObject;
  /** Path parameters (`:id` → `{id}`) and what they name. */
  params?: Record<string, string>;
  /** Required request headers and what they carry. */
  headers?: Record<string, string>;
  responses: Record<number, ResponseDoc>;
  /** Error statuses beyond 400/413/415 (with a body), 401/429 (unless open), 403 and 500. */
  errors?: (keyof typeof ERRORS)[];
  /** Open even when `API_KEYS` is set (and then 401/429 only when listed in `errors`). */
  open?: boolean;
  /** The error body, when the route answers in another API's shape than sift's. */
  errorBody?: z.ZodType;
};

/** What each error status means (the body: `{error: {type, message}}`, or `errorBody`). */
const ERRORS = {
  400: "A bad request: the message names the field and the reason",
  401: "Missing or invalid API key (only when the server sets `API_KEYS`)",
  403:
    "A foreign `Origin` (not in `CORS_ORIGINS`), or on a local server a `Host` that is not loopback",
  404: "Not found",
  409: "Conflicts with what the resource already is: the message says how",
  413: "The body is over the route's size limit",
  415: "The body is not `application/json`",
  429: "Over `RATE_LIMIT_PER_MINUTE`: `Retry-After` says when to come back",
  500: "Internal error, or the server is misconfigured",
  502: "A provider (LLM, embeddings, index, cache) or another function failed",
  503: "Not configured on this server: the message names the setting",
  504: "Another function did not answer in time",
} as const;

/** `application/json` with this schema. */
export function jsonContent(schema: z.ZodType): Content {
  return { "application/json": { schema: resolver(schema) } };
}

/** A JSON response. */
export function json(description: string, schema: z.ZodType): ResponseDoc {
  return { description, content: jsonContent(schema) };
}

/**
 * `text/event-stream`: one schema for every event of the stream, `{event,
 * data}` with `event` the name on the `event:` line and `data` the JSON on
 * the `data:` line (the shape OpenAPI 3.2 gives stream items).
 */
export function eventContent(events: Record<string, z.ZodType>): Content {
  const shapes: z.ZodType[] = Object.entries(events).map(([name, data]) =>
    z.object({ event: z.literal(name), data })
  );
  const schema = z.union(shapes).meta({
    description: "One server-sent event: `event:` names it, `data:` holds this JSON",
  });
  return { "text/event-stream": { schema: resolver(schema) } };
}

/** `text/event-stream` of unnamed events whose `data:` lines each hold this JSON (OpenAI's style). */
export function dataStreamContent(schema: z.ZodType): Content {
  return { "text/event-stream": { schema: resolver(schema) } };
}

/** An event-stream response. */
export function events(description: string, events: Record<string, z.ZodType>): ResponseDoc {
  return { description, content: eventContent(events) };
}

const ERROR_REF = "#/components/responses/Error";

function errorResponses(route: RouteDoc) {
  const statuses = new Set<keyof typeof ERRORS>([403, 500, ...(route.errors ?? [])]);
  if (route.body || route.form) statuses.add(400).add(413).add(415);
  if (!route.open) statuses.add(401).add(429);
  return Object.fromEntries(
    [...statuses].sort((a, b) => a - b).map((status) => [
      status,
      route.errorBody
        ? json(ERRORS[status], route.errorBody)
        : { $ref: ERROR_REF, description: ERRORS[status] },
    ]),
  );
}

/** A parameter's schema, as JSON Schema, from the zod schema that checks it. */
function parameterSchema(schema: z.ZodType) {
  const { $schema: _, ...converted } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  });
  return converted;
}

function parametersOf(route: RouteDoc) {
  const named = (where: "path" | "header", names: Record<string, string> = {}) =>
    Object.entries(names).map(([name, description]) => ({
      name,
      in: where,
      required: true,
      description,
      schema: { type: "string" },
    }));
  const path = [...named("path", route.params), ...named("header", route.headers)];
  const query = Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: !(schema as z.ZodType).safeParse(undefined).success,
    ...(schema.description ? { description: schema.description } : {}),
    schema: parameterSchema(schema as z.ZodType),
  }));
  const parameters = [...path, ...query];
  return parameters.length > 0 ? parameters : undefined;
}

/** The route's OpenAPI description, as a middleware that only carries it. */
export function describe(route: RouteDoc): MiddlewareHandler {
  const spec = {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.body || route.form
      ? {
        requestBody: {
          required: true,
          content: {
            ...(route.body ? jsonContent(route.body) : {}),
            ...(route.form ? { "multipart/form-data": { schema: route.form } } : {}),
          },
        },
      }
      : {}),
    responses: { ...route.responses, ...errorResponses(route) },
    ...(route.open ? { security: [] } : {}),
  };
  // Read when the document is built (hono-openapi spreads the spec then), so
  // routes mount without converting any schema.
  Object.defineProperty(spec, "parameters", {
    enumerable: true,
    get: () => parametersOf(route),
  });
  return passingThrough(describeRoute(spec as Parameters<typeof describeRoute>[0]));
}

/**
 * hono-openapi's route description as a middleware that hands the request
 * straight on, not through an `async` function of its own (a promise per
 * request on every described route): the same properties, so the document
 * finds the description where it looks for it.
 */
function passingThrough(described: MiddlewareHandler): MiddlewareHandler {
  const middleware: MiddlewareHandler = (_c, next) => next();
  Object.defineProperty(middleware, "name", { value: described.name, configurable: true });
  for (const key of Reflect.ownKeys(described)) {
    if (typeof key !== "symbol") continue;
    Object.defineProperty(middleware, key, Object.getOwnPropertyDescriptor(described, key)!);
  }
  return middleware;
}
