const ALPHABET = new TextEncoder().encode(
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
);
const PAD = 61; // "="
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Standard base64 of bytes, written as bytes first: no giant intermediate strings. */
export function base64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (const end = bytes.length - 2; i < end; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ALPHABET[n >>> 18]!;
    out[o++] = ALPHABET[(n >>> 12) & 63]!;
    out[o++] = ALPHABET[(n >>> 6) & 63]!;
    out[o++] = ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = ALPHABET[n >>> 18]!;
    out[o++] = ALPHABET[(n >>> 12) & 63]!;
    out[o++] = rest === 2 ? ALPHABET[(n >>> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return new TextDecoder().decode(out);
}

/**
 * Little-endian float32 bytes in base64: what OpenAI's
 * `encoding_format: "base64"` returns (and what its SDK asks for by default).
 *
 * @example
 * float32Base64([1, 0]); // "AACAPwAAAAA="
 */
export function float32Base64(values: ArrayLike<number>): string {
  const floats = Float32Array.from(values);
  if (!LITTLE_ENDIAN) {
    const view = new DataView(floats.buffer);
    floats.forEach((value, i) => view.setFloat32(i * 4, value, true));
  }
  return base64(new Uint8Array(floats.buffer));
}
