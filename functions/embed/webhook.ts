import type { Hono } from "hono";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { SiftError, UnauthorizedError } from "../../shared/errors.ts";
import { readBodyBytes } from "../../shared/http/body.ts";
import { decodeUtf8Body } from "../../shared/http/utf8.ts";
import { requireJsonContentType } from "../../shared/http/content-type.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { validate } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { ingestBody } from "./ingest-body.ts";
import { ingestSchema } from "./ingest-schema.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { ingestResponseSchema, webhookDuplicateSchema } from "./responses.ts";
import { signatureCoversBytes } from "./webhook-bytes.ts";

/**
 * A `webhook-id` seen this recently is acknowledged, not ingested again.
 * Standard Webhooks refuses timestamps more than 5 minutes off, so a repeat
 * arriving later than this cannot pass verification anyway.
 */
const SEEN_TTL_SECONDS = 15 * 60;

/**
 * `POST /v1/webhooks/documents`: the `/v1/documents` body pushed by a system
 * whose documents changed, verified per Standard Webhooks with
 * `INGEST_WEBHOOK_SECRET` (the signature is the credential: no API key).
 */
export function mountDocumentsWebhook(app: Hono<AppEnv>): void {
  app.post(
    "/v1/webhooks/documents",
    describe({
      tag: "embed",
      summary: "Documents pushed by a system whose documents changed (Standard Webhooks)",
      description: "The `/v1/documents` body, signed with `INGEST_WEBHOOK_SECRET`; the " +
        "signature stands in for the API key. A timestamp more than 5 minutes off gets 401; " +
        "a repeated `webhook-id` is acknowledged without ingesting twice.",
      headers: {
        "webhook-id": "Unique per message: a repeat is acknowledged, not ingested again",
        "webhook-timestamp": "Unix seconds when it was signed",
        "webhook-signature": "`v1,<base64 HMAC-SHA256>` of `id.timestamp.body`",
      },
      body: ingestSchema,
      open: true,
      responses: {
        201: json("Ingested", ingestResponseSchema),
        200: json("Already ingested under this `webhook-id`", webhookDuplicateSchema),
      },
      errors: [401, 429, 502, 503],
    }),
    async (c) => {
      const secret = c.var.config.ingestWebhookSecret;
      if (!secret) {
        throw new SiftError(
          "not_configured",
          503,
          "Pushing documents needs INGEST_WEBHOOK_SECRET (whsec_ and base64 of a random key)",
        );
      }
      requireJsonContentType(c.req.raw);
      // The signature covers the exact bytes, so they are read whole, but never past the limit.
      const bytes = await readBodyBytes(c.req.raw, LIMITS.ingestBodyBytes, {
        timeoutMs: c.var.config.bodyReadTimeoutMs,
      });
      const signed = {
        id: c.req.header("webhook-id") ?? "",
        timestamp: c.req.header("webhook-timestamp") ?? "",
        signature: c.req.header("webhook-signature") ?? "",
      };
      let payload: string;
      try {
        payload = decodeUtf8Body(bytes);
      } catch (error) {
        // Checked over the bytes first: only a signed sender learns what is wrong with its body.
        if (await signatureCoversBytes(secret, signed, bytes)) throw error;
        throw new UnauthorizedError(`Webhook not verified: ${reasonOf(new Error("signature"))}`);
      }
      let parsed: unknown;
      try {
        parsed = new Webhook(secret).verify(payload, {
          "webhook-id": signed.id,
          "webhook-timestamp": signed.timestamp,
          "webhook-signature": signed.signature,
        });
      } catch (error) {
        if (error instanceof WebhookVerificationError || error instanceof SyntaxError) {
          throw new UnauthorizedError(`Webhook not verified: ${reasonOf(error)}`);
        }
        throw error;
      }
      const body = validate(ingestSchema, parsed);
      const seenKey = `webhook:documents:${c.req.header("webhook-id")}`;
      if (await c.var.deps.cache.get<boolean>(seenKey)) {
        return c.json({ duplicate: true, webhook_id: c.req.header("webhook-id") }, 200);
      }
      const result = await ingestBody(c, body);
      await c.var.deps.cache.set(seenKey, true, { ttlSeconds: SEEN_TTL_SECONDS });
      return c.json(result, 201);
    },
  );
}

function reasonOf(error: Error): string {
  if (error instanceof SyntaxError) return "the signed body is not JSON";
  if (/timestamp/i.test(error.message)) return "the timestamp is more than 5 minutes off";
  if (/headers/i.test(error.message)) {
    return "webhook-id, webhook-timestamp or webhook-signature is missing";
  }
  return "the signature does not match";
}
