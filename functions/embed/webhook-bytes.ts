/**
 * Whether a Standard Webhooks signature (`v1,<base64>` entries, space
 * separated) covers `id.timestamp.` and then exactly these bytes. The
 * `standardwebhooks` package signs text only, so a body that is not UTF-8
 * could never be checked by it: checked over its bytes here, a signed body is
 * told it is not UTF-8 (400), an unsigned one that its signature fails (401).
 * The timestamp's age is the package's check and is not repeated here.
 */
export async function signatureCoversBytes(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  bytes: Uint8Array,
): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.replace(/^whsec_/, "")),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const prefix = new TextEncoder().encode(`${headers.id}.${headers.timestamp}.`);
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix);
  signed.set(bytes, prefix.length);
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
  return headers.signature.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    if (version !== "v1" || !value) return false;
    let given: Uint8Array;
    try {
      given = fromBase64(value);
    } catch {
      return false; // not base64: not a signature
    }
    return given.length === expected.length &&
      given.reduce((diff, byte, i) => diff | (byte ^ expected[i]!), 0) === 0;
  });
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
