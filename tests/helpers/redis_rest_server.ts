/**
 * A local stand-in for the Upstash Redis REST API, backed by a real
 * `redis-server`, so `@upstash/redis` can be tested end to end offline.
 *
 * It speaks what the SDK sends (read from its `HttpClient`): `POST /` with one
 * command as a JSON array, `POST /pipeline` and `POST /multi-exec` with an array
 * of commands, `Authorization: Bearer <token>`, and `Upstash-Encoding: base64`
 * (which the SDK sends by default) asking for every string in a result to be
 * base64-encoded. Replies are `{ "result": ... }` or `{ "error": ... }` (400).
 * `EVAL`/`EVALSHA` run on Redis as Upstash runs them (see `ScriptTable`).
 *
 * @example
 * await using stack = await startRedisRestStack();
 * const redis = new Redis({ url: stack.url, token: stack.token });
 */
import { Buffer } from "node:buffer";
import { z } from "zod";

// ---------------------------------------------------------------- redis-server

/** Absolute path of `redis-server` (`REDIS_SERVER_PATH` or `PATH`), if any. */
export function findRedisServer(): string | undefined {
  const override = Deno.env.get("REDIS_SERVER_PATH");
  if (override) return override;
  const separator = Deno.build.os === "windows" ? ";" : ":";
  for (const directory of (Deno.env.get("PATH") ?? "").split(separator)) {
    if (!directory) continue;
    const candidate = `${directory}/redis-server`;
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/**
 * What a test file needs to run against a real Redis: the binary, and whether
 * to skip. Missing `redis-server` skips locally but throws when `CI` is set,
 * so a CI image without it cannot pass by skipping.
 *
 * @example
 * const redisTests = redisServerOrSkip("cache_upstash_redis_test");
 * Deno.test({ name: "...", ignore: redisTests.ignore, fn: async () => {} });
 */
export function redisServerOrSkip(suite: string): { redisServerPath: string; ignore: boolean } {
  const redisServerPath = findRedisServer();
  if (redisServerPath) return { redisServerPath, ignore: false };
  if (Deno.env.get("CI")) {
    throw new Error(
      `${suite}: redis-server is not on PATH and CI is set. Install it ` +
        "(apt-get install redis-server) or set REDIS_SERVER_PATH.",
    );
  }
  console.warn(`${suite}: skipped, redis-server is not on PATH (set REDIS_SERVER_PATH).`);
  return { redisServerPath: "redis-server", ignore: true };
}

export interface RedisServerProcess extends AsyncDisposable {
  readonly hostname: string;
  readonly port: number;
  /** Stops the server and waits for it to exit. */
  close(): Promise<void>;
}

/** Spawns a throwaway `redis-server` on a free loopback port, ready for PING. */
export async function startRedisServer(
  options: { redisServerPath?: string } = {},
): Promise<RedisServerProcess> {
  const hostname = "127.0.0.1";
  const port = freeLoopbackPort();
  const child = new Deno.Command(options.redisServerPath ?? findRedisServer() ?? "redis-server", {
    args: [
      ["--port", String(port)],
      ["--bind", hostname],
      ["--save", ""],
      ["--appendonly", "no"],
      ["--loglevel", "warning"],
    ].flat(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Drained from the start so a chatty server never blocks on a full pipe.
  const output = child.output();
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already exited.
    }
    await output;
  };
  try {
    await waitForPing(hostname, port, output);
  } catch (error) {
    await close();
    throw error;
  }
  return { hostname, port, close, [Symbol.asyncDispose]: close };
}

function freeLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitForPing(
  hostname: string,
  port: number,
  output: Promise<Deno.CommandOutput>,
): Promise<void> {
  let exited: Deno.CommandOutput | undefined;
  output.then((result) => (exited = result), () => {});
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (exited) {
      const log = new TextDecoder().decode(exited.stdout) + new TextDecoder().decode(exited.stderr);
      throw new Error(`redis-server exited with code ${exited.code}: ${log.trim()}`);
    }
    try {
      const connection = await RespConnection.connect(hostname, port);
      try {
        if ((await connection.send(["PING"])) === "PONG") return;
      } finally {
        connection.close();
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}

// ------------------------------------------------------------------------ RESP

/** An error reply (`-ERR ...`), kept as a value so pipelines can report it per command. */
export class RespError {
  constructor(readonly message: string) {}
}

/** A decoded RESP2 reply: simple string, bulk bytes, integer, nil, array or error. */
export type RespValue = string | Uint8Array | number | null | RespError | RespValue[];

const CRLF = "\r\n";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One RESP2 connection; commands run one at a time, in call order. */
export class RespConnection {
  readonly #connection: Deno.TcpConn;
  #buffer = new Uint8Array(0);
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(connection: Deno.TcpConn) {
    this.#connection = connection;
  }

  static async connect(hostname: string, port: number): Promise<RespConnection> {
    return new RespConnection(await Deno.connect({ hostname, port }));
  }

  /** Runs `work` with the connection to itself (for MULTI ... EXEC). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Sends one command and reads its reply; callers outside `exclusive` only. */
  send(args: readonly string[]): Promise<RespValue> {
    return this.exclusive(() => this.sendUnqueued(args));
  }

  /** `send` for use inside `exclusive`. */
  async sendUnqueued(args: readonly string[]): Promise<RespValue> {
    const parts = [`*${args.length}${CRLF}`];
    for (const arg of args) parts.push(`$${encoder.encode(arg).length}${CRLF}${arg}${CRLF}`);
    let bytes = encoder.encode(parts.join(""));
    while (bytes.length > 0) bytes = bytes.subarray(await this.#connection.write(bytes));
    return await this.#readReply();
  }

  close(): void {
    this.#connection.close();
  }

  async #readReply(): Promise<RespValue> {
    const line = await this.#readLine();
    const body = line.slice(1);
    switch (line[0]) {
      case "+":
        return body;
      case "-":
        return new RespError(body);
      case ":":
        return Number(body);
      case "$": {
        const length = Number(body);
        if (length < 0) return null;
        const bytes = await this.#readBytes(length + 2);
        return bytes.slice(0, length);
      }
      case "*": {
        const count = Number(body);
        if (count < 0) return null;
        const items: RespValue[] = [];
        for (let index = 0; index < count; index++) items.push(await this.#readReply());
        return items;
      }
      default:
        throw new Error(`Unexpected RESP line from redis-server: ${JSON.stringify(line)}`);
    }
  }

  async #readLine(): Promise<string> {
    for (;;) {
      const end = this.#buffer.findIndex((byte, index) =>
        byte === 13 && this.#buffer[index + 1] === 10
      );
      if (end >= 0) return decoder.decode(this.#take(end + 2).subarray(0, end));
      await this.#fill();
    }
  }

  async #readBytes(length: number): Promise<Uint8Array> {
    while (this.#buffer.length < length) await this.#fill();
    return this.#take(length);
  }

  #take(length: number): Uint8Array {
    const taken = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.slice(length);
    return taken;
  }

  async #fill(): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    const count = await this.#connection.read(chunk);
    if (count === null) throw new Error("redis-server closed the connection");
    const joined = new Uint8Array(this.#buffer.length + count);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, count), this.#buffer.length);
    this.#buffer = joined;
  }
}

// ------------------------------------------------------------ REST translator

const commandSchema = z.array(z.union([z.string(), z.number(), z.boolean()])).min(1);
const commandListSchema = z.array(commandSchema).min(1);

export interface RecordedRestRequest {
  path: string;
  /** The parsed JSON body: one command, or a list of them. */
  body: unknown;
  base64: boolean;
}

export interface RedisRestServer extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Every request received, in order, including failed and rejected ones. */
  readonly requests: RecordedRestRequest[];
  /**
   * The next `count` requests get `status` (default 500) and `body` instead of
   * reaching Redis, after `delayMs` (to trip client timeouts; `close` waits it out).
   */
  failNext(count?: number, failure?: { status?: number; body?: string; delayMs?: number }): void;
  close(): Promise<void>;
}

/** Serves the Upstash REST protocol on a free loopback port, forwarding to Redis. */
export async function startRedisRestServer(
  options: { redisPort: number; redisHostname?: string; token: string },
): Promise<RedisRestServer> {
  const redis = await RespConnection.connect(
    options.redisHostname ?? "127.0.0.1",
    options.redisPort,
  );
  const requests: RecordedRestRequest[] = [];
  const failures: { status: number; body: string; delayMs: number }[] = [];
  const scripts = new ScriptTable();

  const handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const base64 = request.headers.get("upstash-encoding")?.toLowerCase() === "base64";
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      body = undefined;
    }
    requests.push({ path, body, base64 });
    const failure = failures.shift();
    if (failure) {
      if (failure.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      return new Response(failure.body, { status: failure.status });
    }
    if (request.method !== "POST") return errorReply("Only POST is supported", 405);
    if (request.headers.get("authorization") !== `Bearer ${options.token}`) {
      return errorReply("Unauthorized", 401);
    }
    const toJson = (value: RespValue) => resultToJson(value, base64);
    if (path === "/") {
      const command = commandSchema.safeParse(body);
      if (!command.success) return errorReply("ERR failed to parse command", 400);
      const args = await scripts.translate(command.data.map(String));
      if (args instanceof RespError) return errorReply(args.message, 400);
      const reply = await redis.send(args);
      if (reply instanceof RespError) return errorReply(reply.message, 400);
      return Response.json({ result: toJson(reply) });
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      const commands = commandListSchema.safeParse(body);
      if (!commands.success) return errorReply("ERR failed to parse pipeline request", 400);
      const translated = await Promise.all(
        commands.data.map((command) => scripts.translate(command.map(String))),
      );
      const refused = translated.find((args) => args instanceof RespError);
      if (refused instanceof RespError) return errorReply(refused.message, 400);
      const argLists = translated as string[][];
      const replies = path === "/pipeline"
        ? await redis.exclusive(() => runEach(redis, argLists))
        : await redis.exclusive(() => runTransaction(redis, argLists));
      if (replies instanceof RespError) return errorReply(replies.message, 400);
      return Response.json(
        replies.map((reply) =>
          reply instanceof RespError ? { error: reply.message } : { result: toJson(reply) }
        ),
      );
    }
    return errorReply(`Unknown path ${path}`, 404);
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
  const port = server.addr.port;
  let closing: Promise<void> | undefined;
  // Idempotent, so a test may close early to simulate an outage.
  const close = () => closing ??= server.shutdown().then(() => redis.close());
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token: options.token,
    requests,
    failNext(count = 1, failure = {}) {
      const status = failure.status ?? 500;
      const body = failure.body ?? JSON.stringify({ error: "Injected failure" });
      const delayMs = failure.delayMs ?? 0;
      for (let index = 0; index < count; index++) failures.push({ status, body, delayMs });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Lua scripts as Upstash runs them, on a stock `redis-server`. Upstash
 * accepts a shebang flag of its own (`#!lua flags=allow-key-locking`, which
 * `@upstash/ratelimit` sends) that Redis 7 refuses, so `EVAL` goes to Redis
 * without it, and `EVALSHA` of the sha the client computed over the text it
 * sent is mapped to the sha Redis knows. A sha never loaded through `EVAL`
 * gets Redis's own `NOSCRIPT` error, which is what makes the SDK fall back to
 * `EVAL`.
 */
class ScriptTable {
  /** The client's sha1 of a script → the sha1 of what Redis was given. */
  readonly #shas = new Map<string, string>();

  async translate(args: string[]): Promise<string[] | RespError> {
    const [name, first, ...rest] = args;
    const command = name?.toLowerCase();
    if ((command === "eval" || command === "eval_ro") && first !== undefined) {
      const script = withoutUpstashFlags(first);
      this.#shas.set(await sha1Hex(first), await sha1Hex(script));
      return [name!, script, ...rest];
    }
    if ((command === "evalsha" || command === "evalsha_ro") && first !== undefined) {
      const sha = this.#shas.get(first.toLowerCase());
      if (!sha) return new RespError("NOSCRIPT No matching script. Please use EVAL.");
      return [name!, sha, ...rest];
    }
    return args;
  }
}

/** The script with `allow-key-locking` (Upstash only) dropped from its shebang's flags. */
function withoutUpstashFlags(script: string): string {
  return script.replace(/^#!lua flags=([^\n]*)/, (_, flags: string) => {
    const kept = flags.split(",").map((flag) => flag.trim()).filter((flag) =>
      flag && flag !== "allow-key-locking"
    );
    return kept.length > 0 ? `#!lua flags=${kept.join(",")}` : "#!lua";
  });
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function runEach(redis: RespConnection, argLists: string[][]): Promise<RespValue[]> {
  const replies: RespValue[] = [];
  for (const args of argLists) replies.push(await redis.sendUnqueued(args));
  return replies;
}

/** MULTI ... EXEC; a command Redis refuses to queue aborts the whole request. */
async function runTransaction(
  redis: RespConnection,
  argLists: string[][],
): Promise<RespValue[] | RespError> {
  await redis.sendUnqueued(["MULTI"]);
  for (const args of argLists) await redis.sendUnqueued(args);
  const replies = await redis.sendUnqueued(["EXEC"]);
  if (replies instanceof RespError) return replies;
  if (!Array.isArray(replies)) return new RespError("EXECABORT Transaction discarded");
  return replies;
}

/** Strings (and strings in nested arrays) become base64 when the client asked for it. */
function resultToJson(value: RespValue, base64: boolean): unknown {
  if (value === null || typeof value === "number") return value;
  if (value instanceof RespError) return value.message;
  if (Array.isArray(value)) return value.map((item) => resultToJson(item, base64));
  const bytes = typeof value === "string" ? encoder.encode(value) : value;
  return base64 ? Buffer.from(bytes).toString("base64") : decoder.decode(bytes);
}

function errorReply(message: string, status: number): Response {
  return Response.json({ error: message }, { status });
}

// --------------------------------------------------------------------- stack

export interface RedisRestStack extends AsyncDisposable {
  readonly url: string;
  readonly token: string;
  readonly redisServer: RedisServerProcess;
  readonly restServer: RedisRestServer;
}

/** A fresh `redis-server` plus a REST translator in front of it. */
export async function startRedisRestStack(
  options: { token?: string; redisServerPath?: string } = {},
): Promise<RedisRestStack> {
  const redisServer = await startRedisServer(options);
  try {
    const restServer = await startRedisRestServer({
      redisPort: redisServer.port,
      token: options.token ?? "test-token",
    });
    return {
      url: restServer.url,
      token: restServer.token,
      redisServer,
      restServer,
      async [Symbol.asyncDispose]() {
        await restServer.close();
        await redisServer.close();
      },
    };
  } catch (error) {
    await redisServer.close();
    throw error;
  }
}
