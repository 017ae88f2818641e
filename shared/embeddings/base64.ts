/**
 * Little-endian float32 bytes in base64: what OpenAI's
 * `encoding_format: "base64"` returns (and what its SDK asks for by default).
 *
 * @example
 * float32Base64([1, 0]); // "AACAPwAAAAA="
 */
export function float32Base64(values: readonly number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, i) => view.setFloat32(i * 4, value, true));
  const bytes = new Uint8Array(view.buffer);
  let binary = "";
  // Chunked, because String.fromCharCode(...bytes) overflows the stack for large vectors.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
