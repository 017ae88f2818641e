/**
 * Hex SHA-256 of a string, for cache keys and derived ids. Web Crypto is on
 * every runtime sift targets (Deno, workerd).
 *
 * @example
 * await sha256Hex("abc"); // "ba7816bf..."
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
