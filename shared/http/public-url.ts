/**
 * Whether a URL may be called by the server on a caller's behalf (webhook
 * callbacks): https, and a host that is not this machine, a private network,
 * link-local, a cloud metadata service or an unspecified address, in any
 * spelling. The WHATWG URL parser already turns `127.1`, `0x7f000001`,
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

function ipv4Reason([a, b]: number[]): string | undefined {
  if (a === 0) return "an unspecified address";
  if (a === 127) return "this machine";
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) {
    return "a private network";
  }
  if (a === 100 && b! >= 64 && b! <= 127) return "a shared (carrier-grade NAT) network";
  if (a === 169 && b === 254) return "a link-local or metadata address";
  if (a === 198 && (b === 18 || b === 19)) return "a benchmarking network";
  if (a! >= 224) return "a multicast or reserved address";
  return undefined;
}

/** Eight 16-bit groups of a compressed IPv6 address (as `URL` prints it), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  const [head, tail, ...rest] = address.split("::");
  if (rest.length) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined
    ? left
    : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) {
    return undefined;
  }
  return groups.map((group) => parseInt(group, 16));
}

function ipv6Reason(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return "an unreadable IPv6 address";
  const [g0, , , , g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroUpTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(8)) return "an unspecified address";
  if (zeroUpTo(7) && g7 === 1) return "this machine";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses carry an IPv4 one.
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) {
    return ipv4Reason([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]) ?? undefined;
  }
  // NAT64 (64:ff9b::/96) embeds one too.
  if (g0 === 0x64 && groups[1] === 0xff9b && !groups[2] && !groups[3] && !g4 && !g5) {
    return ipv4Reason([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  }
  if ((g0 & 0xfe00) === 0xfc00) return "a private network";
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address";
  if ((g0 & 0xff00) === 0xff00) return "a multicast address";
  return undefined;
}
