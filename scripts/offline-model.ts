/**
 * Runs the offline model as an OpenAI-compatible HTTP server, for clients
 * outside the process (another sift, a benchmark, any `openai` client).
 *
 *   deno run --allow-net --allow-env scripts/offline-model.ts
 *
 * Env: OFFLINE_MODEL_PORT (8788), OFFLINE_MODEL_HOST (127.0.0.1),
 * OFFLINE_MODEL_LATENCY, OFFLINE_MODEL_FAULTS, OFFLINE_MODEL_SEED (1).
 */
import { parseFaults, parseLatency } from "../shared/offline-knobs.ts";
import { createOfflineModel, type OfflineModelOptions } from "../providers/offline/model.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task offline-model",
  about: `Runs the offline model (deterministic heuristics, not an LLM) as an OpenAI-compatible HTTP
server: /v1/chat/completions and /v1/embeddings for models sift-offline, sift-offline-judge and
sift-hashed-lexical. Point a client at it with LLM_BASE_URL=http://127.0.0.1:8788/v1 (any key).`,
  flags: {},
  more: `environment (docs/offline-model.md):
  OFFLINE_MODEL_PORT     port (default: 8788; 0 picks a free one)
  OFFLINE_MODEL_HOST     address to listen on (default: 127.0.0.1)
  OFFLINE_MODEL_LATENCY  pace like a real model, e.g. ttft=300ms,tps=80 (default: none)
  OFFLINE_MODEL_FAULTS   failures per call, e.g. http429=0.2,timeout=0.05 (default: none)
  OFFLINE_MODEL_SEED     the seed of the fault draws (default: 1)`,
} satisfies Command;

/** A running offline model server; `await using` closes it. */
export type OfflineModelServer = AsyncDisposable & {
  /** Origin, e.g. `http://127.0.0.1:8788`. */
  url: string;
  /** The SDK's `baseURL`: `url` + `/v1`. */
  baseURL: string;
  close(): Promise<void>;
};

/**
 * Serves the offline model over HTTP; `port: 0` picks a free port (tests).
 *
 * @example
 * await using server = await serveOfflineModel({ port: 0 });
 * const client = new OpenAI({ apiKey: "offline", baseURL: server.baseURL });
 */
export async function serveOfflineModel(
  options: OfflineModelOptions & { port?: number; hostname?: string } = {},
): Promise<OfflineModelServer> {
  const { port = 8788, hostname = "127.0.0.1", ...knobs } = options;
  const model = createOfflineModel(knobs);
  // Deno.serve does not abort a pending handler's request.signal when the client hangs up
  // (nor, once a large body was read, on shutdown), so close() aborts them itself: otherwise a
  // `timeout` fault would hold shutdown forever.
  const closing = new AbortController();
  return await new Promise((resolve) => {
    const server = Deno.serve({
      port,
      hostname,
      onListen: (address) => {
        const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
        const url = `http://${host}:${address.port}`;
        let closed: Promise<void> | undefined;
        const close = () => {
          closing.abort(new DOMException("The offline model server is closing", "AbortError"));
          return (closed ??= server.shutdown().then(() => server.finished));
        };
        resolve({ url, baseURL: `${url}/v1`, close, [Symbol.asyncDispose]: close });
      },
      // A client that hangs up (the `timeout` fault, an SDK timeout) is normal here, not an error.
      onError: (error) => {
        if (error instanceof DOMException && error.name === "AbortError") {
          return new Response(null, { status: 499 });
        }
        console.error(error);
        return Response.json({ error: { message: "Internal error", type: "server_error" } }, {
          status: 500,
        });
      },
    }, (request) =>
      model.handle(
        new Request(request, { signal: AbortSignal.any([request.signal, closing.signal]) }),
      ));
  });
}

/** Reads one knob from the environment; a bad value exits with the variable's name. */
function knob<T>(name: string, parse: (value: string) => T): T | undefined {
  const value = Deno.env.get(name)?.trim();
  if (!value) return undefined;
  try {
    return parse(value);
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}

function integer(min: number, max: number) {
  return (value: string) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new Error(`"${value}" is not a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

if (import.meta.main) {
  const { positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  const latency = Deno.env.get("OFFLINE_MODEL_LATENCY")?.trim() || undefined;
  const faults = Deno.env.get("OFFLINE_MODEL_FAULTS")?.trim() || undefined;
  // Validate the knobs up front, so a typo stops the server with the variable's name.
  knob("OFFLINE_MODEL_LATENCY", parseLatency);
  knob("OFFLINE_MODEL_FAULTS", parseFaults);
  const seed = knob("OFFLINE_MODEL_SEED", integer(-(2 ** 31), 2 ** 32 - 1)) ?? 1;
  const port = knob("OFFLINE_MODEL_PORT", integer(0, 65535)) ?? 8788;
  const hostname = Deno.env.get("OFFLINE_MODEL_HOST")?.trim() || "127.0.0.1";
  const server = await serveOfflineModel({ port, hostname, latency, faults, seed });
  console.log(
    [
      `sift offline model (deterministic heuristics, not an LLM) listening on ${server.url}`,
      `  models: sift-offline, sift-offline-judge, sift-hashed-lexical`,
      `  latency: ${latency ?? "none"}; faults: ${faults ?? "none"}; seed: ${seed}`,
      `  point a client at it: LLM_BASE_URL=${server.baseURL} (any API key)`,
    ].join("\n"),
  );
}
