/**
 * A webhook receiver on loopback for tests: records every delivery, answers
 * with the statuses it is told to (then 204), and checks each signature with
 * its own HMAC-SHA256 over `id.timestamp.body` (Standard Webhooks' scheme),
 * independent of the `standardwebhooks` package that signs them.
 */
export type Delivery = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  verified: boolean;
  json: { type: string; data: Record<string, unknown> };
};

export async function verifySignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (char) => char.charCodeAt(0)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      key,
      new TextEncoder().encode(`${headers.id}.${headers.timestamp}.${body}`),
    ),
  );
  const expected = `v1,${btoa(String.fromCharCode(...mac))}`;
  return headers.signature.split(" ").includes(expected);
}

export function startWebhookReceiver(secret: string, options: { port?: number } = {}) {
  const deliveries: Delivery[] = [];
  const planned: number[] = [];
  const waiters: (() => void)[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
    async (request) => {
      const body = await request.text();
      const headers = {
        id: request.headers.get("webhook-id") ?? "",
        timestamp: request.headers.get("webhook-timestamp") ?? "",
        signature: request.headers.get("webhook-signature") ?? "",
      };
      deliveries.push({
        ...headers,
        body,
        verified: await verifySignature(secret, headers, body),
        json: JSON.parse(body),
      });
      for (const wake of waiters.splice(0)) wake();
      return new Response(null, { status: planned.shift() ?? 204 });
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}/hook`;
  return {
    url,
    port: server.addr.port,
    deliveries,
    /** The next answers, in order (e.g. `[500, 500]`), before the default 204. */
    answerWith: (...statuses: number[]) => planned.push(...statuses),
    /** Resolves once `count` deliveries for `id` arrived (or rejects after `timeoutMs`). */
    async waitFor(id: string, count = 1, timeoutMs = 20_000): Promise<Delivery[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mine = deliveries.filter((delivery) => delivery.id === id);
        if (mine.length >= count) return mine;
        if (Date.now() > deadline) {
          throw new Error(`${mine.length} of ${count} deliveries for ${id} arrived`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => server.shutdown(),
  };
}
