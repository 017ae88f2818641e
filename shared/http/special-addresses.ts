/**
 * Why an IP address is not a public destination, after RFC 6890's IANA
 * special-purpose address registries (IPv4 and IPv6, as updated to 2026),
 * plus multicast and IPv6's unassigned space. Addresses that carry an IPv4
 * one (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4) are judged
 * by the address they carry. Pure functions: nothing here sends traffic.
 *
 * @example
 * ipv4Reason([192, 0, 0, 1]);          // "an IETF protocol assignment"
 * ipv6Reason("2002:a9fe:a9fe::");      // "a link-local or metadata address"
 */

type Range = { base: [number, number, number, number]; bits: number; why: string };

/** IANA IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2 and updates), plus multicast. */
const IPV4_SPECIAL: Range[] = [
  { base: [0, 0, 0, 0], bits: 8, why: "an unspecified address" },
  { base: [10, 0, 0, 0], bits: 8, why: "a private network" },
  { base: [100, 64, 0, 0], bits: 10, why: "a shared (carrier-grade NAT) network" },
  { base: [127, 0, 0, 0], bits: 8, why: "this machine" },
  { base: [169, 254, 0, 0], bits: 16, why: "a link-local or metadata address" },
  { base: [172, 16, 0, 0], bits: 12, why: "a private network" },
  // 192.0.0.9 and .10 are globally reachable anycast services no webhook lives on.
  { base: [192, 0, 0, 0], bits: 24, why: "an IETF protocol assignment" },
  { base: [192, 0, 2, 0], bits: 24, why: "a documentation network" },
  { base: [192, 88, 99, 0], bits: 24, why: "a deprecated 6to4 relay address" },
  { base: [192, 168, 0, 0], bits: 16, why: "a private network" },
  { base: [198, 18, 0, 0], bits: 15, why: "a benchmarking network" },
  { base: [198, 51, 100, 0], bits: 24, why: "a documentation network" },
  { base: [203, 0, 113, 0], bits: 24, why: "a documentation network" },
  { base: [224, 0, 0, 0], bits: 4, why: "a multicast or reserved address" },
  { base: [240, 0, 0, 0], bits: 4, why: "a multicast or reserved address" },
];

function ipv4Number([a, b, c, d]: readonly number[]): number {
  return ((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0;
}

function inRange(address: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((address & mask) >>> 0) === ((base & mask) >>> 0);
}

/** Why the IPv4 address `octets` is not public, or undefined when it is. */
export function ipv4Reason(octets: readonly number[]): string | undefined {
  const address = ipv4Number(octets);
  return IPV4_SPECIAL.find((range) => inRange(address, ipv4Number(range.base), range.bits))?.why;
}

/** Eight 16-bit groups of a compressed IPv6 address (as `URL` prints it), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  // URL prints an embedded dotted quad in hex already; accept one anyway for direct callers.
  const dotted = address.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const octets = dotted[2]!.split(".").map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    address = `${dotted[1]}${hex(octets[0]!, octets[1]!)}:${hex(octets[2]!, octets[3]!)}`;
  }
  const [head, tail, ...rest] = address.split("::");
  if (rest.length) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined
    ? left
    : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) {
    return undefined;
  }
  return groups.map((group) => parseInt(group, 16));
}

const embedded = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/** The first `count` groups are all zero. */
const zeros = (groups: number[], count: number) => groups.slice(0, count).every((g) => g === 0);

/** The address judged by the IPv4 one it carries: public when that one is public. */
function carried(octets: number[], form: string): string | undefined {
  const why = ipv4Reason(octets);
  return why ? `${why} (as ${form})` : undefined;
}

/**
 * Why the IPv6 address (compressed text, no brackets) is not public, or
 * undefined when it is. Only global unicast (2000::/3) can be public, less the
 * special-purpose blocks inside it; outside it, only forms carrying a public
 * IPv4 address are let through.
 */
export function ipv6Reason(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return "an unreadable IPv6 address";
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]; // deno-fmt-ignore
  if (zeros(groups, 8)) return "an unspecified address";
  if (zeros(groups, 7) && g7 === 1) return "this machine";
  if (zeros(groups, 5) && g5 === 0xffff) return carried(embedded(g6, g7), "IPv4-mapped");
  if (zeros(groups, 4) && g4 === 0xffff && g5 === 0) {
    return carried(embedded(g6, g7), "IPv4-translated");
  }
  if (zeros(groups, 6)) return carried(embedded(g6, g7), "IPv4-compatible");
  if (g0 === 0x64 && g1 === 0xff9b) {
    // 64:ff9b::/96 is the well-known NAT64 prefix; 64:ff9b:1::/48 is for local use only.
    if (g2 === 1) return "a local-use NAT64 network";
    if (zeros([g2, g3, g4, g5], 4)) return carried(embedded(g6, g7), "NAT64");
  }
  if ((g0 & 0xfe00) === 0xfc00) return "a private network";
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address";
  if ((g0 & 0xffc0) === 0xfec0) return "a (deprecated) site-local address";
  if ((g0 & 0xff00) === 0xff00) return "a multicast address";
  if ((g0 & 0xe000) !== 0x2000) return "a reserved IPv6 address";
  // Inside 2000::/3.
  if (g0 === 0x2001 && g1 === 0x0db8) return "a documentation network";
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return "a documentation network"; // 3fff::/20
  // 2001::/23: IETF protocol assignments (Teredo 2001::/32 carries an obfuscated IPv4 address,
  // benchmarking 2001:2::/48, ORCHID); none is where a webhook lives.
  if (g0 === 0x2001 && g1 < 0x0200) return "an IETF protocol assignment";
  if (g0 === 0x2002) return carried(embedded(g1, g2), "6to4");
  return undefined;
}
