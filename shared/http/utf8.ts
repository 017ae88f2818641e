import { InvalidRequestError } from "../errors.ts";
import { jsonPathAt } from "./json-path.ts";

/**
 * The byte offset of the first byte that does not start a well-formed UTF-8
 * sequence (Unicode's Table 3-7: no overlongs, no surrogates, nothing past
 * U+10FFFF), or undefined when all of `bytes` is UTF-8.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
      ? 3
      : lead >= 0xf0 && lead <= 0xf4
      ? 4
      : 0;
    if (length === 0) return i;
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return undefined;
}

/** One for every body: a decode call without `stream` keeps no state between calls. */
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A request body's bytes as text, refusing what is not UTF-8 with a 400 that
 * names the field (for JSON) and the byte offset, rather than storing U+FFFD
 * in its place. A byte order mark is kept, so the text encodes back to the
 * same bytes (a signature over one is a signature over the other).
 *
 * @example
 * decodeUtf8Body(new Uint8Array([0x7b, 0xff])); // 400 "body: not valid UTF-8 at byte 1"
 */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    const offset = invalidUtf8Offset(bytes) ?? 0;
    const before = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(0, offset));
    throw new InvalidRequestError(
      `${jsonPathAt(before)}: not valid UTF-8 at byte ${offset} (send text as UTF-8)`,
    );
  }
}
