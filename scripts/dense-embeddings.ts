/**
 * Dense embeddings like a real model's, for benchmarks and tests, over the
 * real OpenAI protocol: every dimension nonzero, unit length, clustered in
 * two levels (topics and subtopics) around a component every vector shares,
 * so nearest neighbours sit close together while most pairs are far apart,
 * as with real text embeddings. Deterministic: the same text gives the same
 * vector, so a benchmark can recompute what the server handed out.
 *
 *   const server = serveDenseEmbeddings({ dimensions: 1536 });
 *   // LLM_BASE_URL=`${server.url}/v1`, then POST /v1/documents as usual
 */
import { float32Base64 } from "../shared/embeddings/base64.ts";
import { mulberry32 } from "../shared/random.ts";

export const DENSE_WIDTH = 1536;
const TOPICS = 1000;
const SUBTOPICS_PER_TOPIC = 8;
/** Weights of the shared component, the topic, the subtopic and the text's own noise. */
const WEIGHTS = { shared: 0.3, topic: 0.45, subtopic: 0.35, noise: 0.75 };

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A vector of independent standard normals from `seed` (Box–Muller). */
function gaussian(seed: number, width: number): Float32Array {
  const random = mulberry32(seed);
  const out = new Float32Array(width);
  for (let i = 0; i < width; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(random() || 1e-12));
    const angle = 2 * Math.PI * random();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < width) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}

/** Deterministic clustered unit vectors of `width` dimensions (cached topic directions). */
export function denseEmbedder(width = DENSE_WIDTH): (text: string) => Float32Array {
  const directions = new Map<number, Float32Array>();
  const direction = (seed: number) => {
    let vector = directions.get(seed);
    if (!vector) directions.set(seed, vector = gaussian(seed, width));
    return vector;
  };
  const shared = direction(0x5eed);
  return (text: string) => {
    const h = hash(text);
    const topic = h % TOPICS;
    const subtopic = (h >>> 10) % SUBTOPICS_PER_TOPIC;
    const topicVector = direction(1 + topic);
    const subtopicVector = direction(1 + TOPICS + topic * SUBTOPICS_PER_TOPIC + subtopic);
    const noise = gaussian(h ^ 0x9e3779b9, width);
    const out = new Float32Array(width);
    let norm = 0;
    for (let d = 0; d < width; d++) {
      const value = WEIGHTS.shared * shared[d]! + WEIGHTS.topic * topicVector[d]! +
        WEIGHTS.subtopic * subtopicVector[d]! + WEIGHTS.noise * noise[d]!;
      out[d] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    for (let d = 0; d < width; d++) out[d] = out[d]! / norm;
    return out;
  };
}

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
