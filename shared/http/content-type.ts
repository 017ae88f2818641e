import { UnsupportedMediaTypeError } from "../errors.ts";

/**
 * `application/json` or any `application/*+json`, with or without parameters
 * such as `; charset=utf-8`.
 */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  const essence = (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[\w.+-]+\+json$/.test(essence);
}

/**
 * Refuses a JSON route's body unless it says it is JSON (415). A browser can
 * send `text/plain`, `multipart/form-data` or a form cross-site without a CORS
 * preflight, but never `application/json`: requiring it keeps other web pages
 * from writing to a local server.
 *
 * @example
 * requireJsonContentType(c.req.raw); // before reading the body
 */
export function requireJsonContentType(request: Request): void {
  const given = request.headers.get("content-type");
  if (!isJsonMediaType(given)) {
    throw new UnsupportedMediaTypeError(
      `content-type: must be application/json${
        given ? `, not ${given.split(";", 1)[0]!.slice(0, 100)}` : ""
      }`,
    );
  }
}
