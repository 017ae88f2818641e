import { ipv4Reason, ipv6Reason } from "./special-addresses.ts";

/**
 * Whether a URL may be called by the server on a caller's behalf (webhook
 * callbacks): https, and a host that is not this machine, a private network,
 * link-local, a cloud metadata service, an unspecified address or any other
 * special-purpose address of RFC 6890's registries (`special-addresses.ts`), in
 * any spelling. The WHATWG URL parser already turns `127.1`, `0x7f000001`,
 * `2130706433` and `[::ffff:127.0.0.1]` into canonical forms, so the checks
 * below only ever see dotted quads and compressed IPv6.
 *
 * A public name that resolves to a private address (DNS rebinding) is not
 * caught here: edge runtimes cannot resolve names before `fetch` does.
 *
 * @example
 * checkPublicUrl("https://hooks.example.com/sift"); // undefined: allowed
 * checkPublicUrl("https://169.254.169.254/");       // "must not point at ..."
 */
export function checkPublicUrl(
  value: string,
  options: { allowPrivate?: boolean } = {},
): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(options.allowPrivate && url.protocol === "http:")) {
    return "must be an https URL";
  }
  if (url.username || url.password) return "must not carry credentials";
  if (options.allowPrivate) return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const why = privateHostReason(host);
  return why ? `must not point at ${why} (${host})` : undefined;
}

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

function privateHostReason(host: string): string | undefined {
  if (host === "localhost" || host.endsWith(".localhost")) return "this machine";
  if (METADATA_NAMES.has(host)) return "a metadata service";
  if (host.endsWith(".internal") || host.endsWith(".local")) return "a private network name";
  if (host.startsWith("[")) return ipv6Reason(host.slice(1, -1));
  const v4 = parseIPv4(host);
  return v4 ? ipv4Reason(v4) : undefined;
}

function parseIPv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}
