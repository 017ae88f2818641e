import { z } from "zod";

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** An IP address as `Deno.serve` reports a peer: dotted IPv4, or IPv6 (brackets allowed). */
function isAddress(entry: string): boolean {
  if (IPV4.test(entry)) return true;
  const bare = entry.replace(/^\[|\]$/g, "");
  return bare.includes(":") && URL.canParse(`http://[${bare}]/`);
}

/**
 * `TRUSTED_PROXIES`: comma-separated addresses of the reverse proxies in front
 * of sift (`127.0.0.1,::1` for nginx on the same host). A request arriving
 * from one of them is counted at the last `X-Forwarded-For` hop, the address
 * that proxy saw; unset, `X-Forwarded-For` is never read. Exact addresses, no
 * ranges: anything else is an error naming the entry.
 *
 * @example
 * trustedProxiesSchema.parse("127.0.0.1, ::1"); // ["127.0.0.1", "::1"]
 */
export const trustedProxiesSchema = z.string().transform((value, context) => {
  const proxies: string[] = [];
  for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
    if (!isAddress(entry)) {
      context.addIssue({
        code: "custom",
        message: `"${entry}" is not an IP address such as 127.0.0.1 or ::1 (ranges are not taken)`,
      });
      return z.NEVER;
    }
    proxies.push(entry);
  }
  return proxies;
});
