/**
 * Dense embeddings like a real model's, for benchmarks and tests, over the
 * real OpenAI protocol: every dimension nonzero, unit length, clustered in
 * two levels (topics and subtopics) around a component every vector shares,
 * so nearest neighbours sit close together while most pairs are far apart,
 * as with real text embeddings. Deterministic: the same text gives the same
 * vector, so a benchmark can recompute what the server handed out. The
 * vectors are the index library's `denseEmbedder` (its testing door).
 *
 *   const server = serveDenseEmbeddings({ dimensions: 1536 });
 *   // LLM_BASE_URL=`${server.url}/v1`, then POST /v1/documents as usual
 */
import { float32Base64 } from "../shared/embeddings/base64.ts";
import { denseEmbedder } from "../lib/vector-index/testing.ts";

export { denseEmbedder };

export const DENSE_WIDTH = 1536;

/** `vector` cut to its first `dimensions` and renormalized, as OpenAI's `dimensions` does. */
export function shortened(vector: Float32Array, dimensions: number): Float32Array {
  if (dimensions >= vector.length) return vector;
  const out = vector.slice(0, dimensions);
  let norm = 0;
  for (const value of out) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < out.length; d++) out[d] = out[d]! / norm;
  return out;
}

export type DenseEmbeddingsServer = { url: string; requests: number; stop(): Promise<void> };

/** An OpenAI-compatible `POST /v1/embeddings` on a loopback port, serving `denseEmbedder`. */
export function serveDenseEmbeddings(
  options: { dimensions?: number; embed?: (text: string) => Float32Array } = {},
): DenseEmbeddingsServer {
  const embed = options.embed ?? denseEmbedder(options.dimensions ?? DENSE_WIDTH);
  const state = { requests: 0 };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method !== "POST" || path !== "/v1/embeddings") {
        return Response.json({
          error: { message: `no route ${path}`, type: "invalid_request_error" },
        }, {
          status: 404,
        });
      }
      state.requests++;
      const body = await request.json() as {
        input: string | string[];
        model: string;
        dimensions?: number;
        encoding_format?: "float" | "base64";
      };
      const inputs = typeof body.input === "string" ? [body.input] : body.input;
      const data = inputs.map((text, index) => {
        const vector = shortened(embed(text), body.dimensions ?? Infinity);
        return {
          object: "embedding",
          index,
          embedding: body.encoding_format === "base64" ? float32Base64(vector) : Array.from(vector),
        };
      });
      const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
      return Response.json({
        object: "list",
        data,
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    get requests() {
      return state.requests;
    },
    stop: () => server.shutdown(),
  };
}
