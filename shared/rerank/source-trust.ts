import type { Judgment, RerankDocument } from "./types.ts";

/**
 * Criteria that weigh who stands behind a document: REBEL's one-turn
 * `authoritativeness` and what a generated rubric calls it (`credibility`,
 * `source_trustworthiness`...).
 */
const AUTHORITY_CRITERION = /authorit|credib|trust/i;

/** Metadata that only claims authority: shown to the model for trusted sources alone. */
const CLAIMED_AUTHORITY_FIELDS = ["authors", "source"] as const;

/**
 * A document's source: the host of its `url` (lower case), or undefined
 * without a parseable http(s) URL. The URL is the one claim a reader can
 * check; an `authors` or `source` field is not.
 *
 * @example
 * documentSource({ url: "https://arxiv.org/abs/1810.04805" }); // "arxiv.org"
 */
export function documentSource(metadata: Record<string, unknown> | undefined): string | undefined {
  const url = metadata && Object.hasOwn(metadata, "url") ? metadata.url : undefined;
  if (typeof url !== "string" || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === "http:" || parsed.protocol === "https:"
    ? parsed.hostname.toLowerCase()
    : undefined;
}

/** True when the document's host is a listed one or a subdomain of it (`export.arxiv.org`). */
export function isTrustedSource(
  metadata: Record<string, unknown> | undefined,
  trusted: readonly string[],
): boolean {
  const host = documentSource(metadata);
  return host !== undefined &&
    trusted.some((entry) => host === entry || host.endsWith(`.${entry}`));
}

/** The document as the model sees it: without authors or source claims when untrusted. */
export function withoutClaimedAuthority(document: RerankDocument): RerankDocument {
  if (!document.metadata) return document;
  const metadata = { ...document.metadata };
  for (const field of CLAIMED_AUTHORITY_FIELDS) delete metadata[field];
  return { ...document, metadata };
}

/** The judgment with every authority criterion at 0: an untrusted source earns none. */
export function withoutAuthority(judgment: Judgment): Judgment {
  const criteria = Object.fromEntries(
    Object.entries(judgment.criteria).map((
      [name, score],
    ) => [name, AUTHORITY_CRITERION.test(name) ? 0 : score]),
  );
  return { ...judgment, criteria };
}
