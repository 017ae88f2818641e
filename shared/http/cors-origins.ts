import { z } from "zod";

/**
 * `CORS_ORIGINS`: comma-separated web origins (scheme, host and port, as a
 * browser sends them in `Origin`) whose pages may call sift. A trailing
 * slash is dropped; a path, or anything else that is not an origin, is an
 * error that names the entry.
 *
 * @example
 * corsOriginsSchema.parse("https://app.example, http://localhost:5173/");
 * // ["https://app.example", "http://localhost:5173"]
 */
export const corsOriginsSchema = z.string().transform((value, context) => {
  const origins: string[] = [];
  for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
    const origin = entry.replace(/\/$/, "");
    if (!URL.canParse(origin) || new URL(origin).origin !== origin.toLowerCase()) {
      context.addIssue({
        code: "custom",
        message: `"${entry}" is not an origin such as https://app.example`,
      });
      return z.NEVER;
    }
    origins.push(new URL(origin).origin);
  }
  return origins;
});
