import { z } from "zod";

const id = z.union([z.string(), z.number()]);
const request = z.looseObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  id: id.optional(),
  params: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
});
const result = z.looseObject({ jsonrpc: z.literal("2.0"), id, result: z.unknown() });
const failure = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([id, z.null()]).optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }),
});
const message = z.union([request, result, failure]);

/**
 * Why a parsed body is not a JSON-RPC 2.0 envelope (a message, or a non-empty
 * batch of them), or undefined when it is one. JSON-RPC answers such a body
 * with -32600 Invalid Request; -32700 is for text that is not JSON at all.
 *
 * @example
 * invalidEnvelope({ jsonrpc: "1.0", method: "ping" }); // "jsonrpc must be \"2.0\""
 */
export function invalidEnvelope(body: unknown): string | undefined {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return "an empty batch";
  for (const [index, candidate] of messages.entries()) {
    if (message.safeParse(candidate).success) continue;
    const where = Array.isArray(body) ? `message ${index}: ` : "";
    if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) {
      return `${where}must be a JSON object`;
    }
    if ((candidate as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
      return `${where}jsonrpc must be "2.0"`;
    }
    return `${where}must carry a method (string), or an id with a result or an error`;
  }
  return undefined;
}
