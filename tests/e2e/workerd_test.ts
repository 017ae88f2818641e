/**
 * The all-in-one Worker under workerd: `wrangler dev` (local, offline) serves
 * `/healthz`, streams `/v1/query` as server-sent events and maps a bad body to
 * a 400, the same as the Deno server does. Slow (wrangler bundles, then starts
 * workerd: ~5-15 s), so it starts one wrangler for all its steps.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const PROJECT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = "npm:wrangler@4.156.0";
const STARTUP_DEADLINE_MS = 90_000;
const REQUEST_TIMEOUT_MS = 30_000;
const SHUTDOWN_GRACE_MS = 10_000;

/** Paced so answer tokens are tens of milliseconds apart: a buffered body would show it. */
const OFFLINE_MODEL_LATENCY = "ttft=20ms,tps=200";

/** A port nothing listens on right now (released before wrangler takes it). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`, or `undefined` once `ms` have passed; the timer never outlives the call. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A fetch that gives up after `ms`, with a timer that is always cleared. */
async function fetchWithin(
  client: Deno.HttpClient,
  url: string,
  init: RequestInit,
  ms: number,
): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${url}: no answer in ${ms} ms`)), ms);
  try {
    return await fetch(url, { ...init, client, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

async function pgrep(...args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command("pgrep", { args, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(stdout).trim();
}

/** Wrangler's environment: the caller's, minus anything that could select an account or env. */
function wranglerEnv(): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) =>
      !name.startsWith("CLOUDFLARE_") && !name.startsWith("CF_") && !name.startsWith("WRANGLER_")
    ),
  );
  return {
    ...env,
    CI: "true",
    NO_COLOR: "1",
    DO_NOT_TRACK: "1",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    // Also skips the npm update check, which the banner runs.
    WRANGLER_HIDE_BANNER: "true",
    WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
    // The worker's env is only what this test passes, never the caller's shell.
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
  };
}

type WranglerDev = {
  baseUrl: string;
  port: number;
  output(): string;
  /** How wrangler exited, once it has. */
  exited(): Deno.CommandStatus | undefined;
  /** Ends wrangler and every workerd it started; safe to call twice. */
  stop(): Promise<void>;
};

async function startWranglerDev(scratchDir: string): Promise<WranglerDev> {
  const port = freePort();
  const inspectorPort = freePort();
  // An empty env file replaces .dev.vars and .env: a developer's real LLM or
  // Upstash keys must not turn this offline test into an online one.
  const envFile = `${scratchDir}/empty.env`;
  await Deno.writeTextFile(envFile, "");
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      WRANGLER,
      "dev",
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      `${scratchDir}/state`,
      "--env-file",
      envFile,
      "--var",
      `OFFLINE_MODEL_LATENCY:${OFFLINE_MODEL_LATENCY}`,
      "--show-interactive-dev-session=false",
      "--log-level",
      "info",
    ],
    cwd: PROJECT_DIR,
    clearEnv: true,
    env: wranglerEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // Its own process group, so one signal reaches wrangler and the workerd it spawns.
    detached: true,
  }).spawn();

  const chunks: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>, label: string) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      chunks.push(label === "stderr" ? text.replace(/^(?=.)/gm, "[stderr] ") : text);
    }
  };
  // workerd inherits these pipes, so they close only when the whole group has exited.
  const collecting = Promise.all([
    collect(child.stdout, "stdout"),
    collect(child.stderr, "stderr"),
  ]);
  let exitStatus: Deno.CommandStatus | undefined;
  const status = child.status.then((result) => exitStatus = result);

  const signalGroup = (signal: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, signal);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // NotFound: the group is gone
    }
  };
  const groupAlive = async () => (await pgrep("-g", String(child.pid))) !== "";

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      signalGroup("SIGTERM");
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      while (await groupAlive() && Date.now() < deadline) await delay(100);
      if (await groupAlive()) signalGroup("SIGKILL");
      await status;
      if (await within(collecting, SHUTDOWN_GRACE_MS) === undefined) {
        // A process left the group but kept the pipes: stop reading so the test can end.
        chunks.push("\n[test] output pipes still open after shutdown\n");
      }
    })();

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    output: () => chunks.join(""),
    exited: () => exitStatus,
    stop,
  };
}

type SseEvent = { event: string; data: unknown; atMs: number; read: number };

/** Reads a `text/event-stream` body as it arrives, noting when and in which read each event came. */
async function readEvents(body: ReadableStream<Uint8Array>, startedAt: number) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  let reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reads += 1;
    buffer += value.replaceAll("\r\n", "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      events.push({
        event,
        data: JSON.parse(data.join("\n")),
        atMs: performance.now() - startedAt,
        read: reads,
      });
    }
  }
  return { events, endedAtMs: performance.now() - startedAt, rest: buffer };
}

type Health = { status?: unknown; providers?: Record<string, unknown> };

function asHealth(value: unknown): Health {
  assert.ok(value && typeof value === "object", "healthz: not an object");
  return value as Health;
}

Deno.test("the all-in-one worker serves, streams and validates under workerd (wrangler dev)", async (t) => {
  const scratchDir = await Deno.makeTempDir({ prefix: "sift-workerd-" });
  const client = Deno.createHttpClient({});
  let wrangler: WranglerDev | undefined;
  let failed = true;
  try {
    wrangler = await startWranglerDev(scratchDir);
    const dev = wrangler;
    const { baseUrl } = dev;

    // A failed step does not throw in the parent: stop at the first one.
    const started = await t.step("GET /healthz answers, every provider offline", async () => {
      const deadline = Date.now() + STARTUP_DEADLINE_MS;
      let health: Health | undefined;
      let lastError: unknown;
      while (!health) {
        assert.ok(
          Date.now() < deadline,
          `wrangler dev did not answer /healthz in ${STARTUP_DEADLINE_MS} ms: ${lastError}`,
        );
        const exited = dev.exited();
        assert.ok(!exited, `wrangler dev exited early (code ${exited?.code}): ${lastError}`);
        try {
          const response = await fetchWithin(client, `${baseUrl}/healthz`, {}, REQUEST_TIMEOUT_MS);
          if (response.ok) health = asHealth(await response.json());
          else lastError = `HTTP ${response.status}: ${await response.text()}`;
        } catch (error) {
          lastError = error;
        }
        if (!health) await delay(250);
      }
      assert.equal(health.status, "ok");
      assert.deepEqual(health.providers, {
        llm: "offline",
        embeddings: "offline",
        index: "offline",
        cache: "offline",
      });
    });

    if (!started) return;
    const streamed = await t.step(
      "POST /v1/query streams retrieval, answer deltas, answer, usage, done",
      async () => {
        const startedAt = performance.now();
        const response = await fetchWithin(client, `${baseUrl}/v1/query`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "What is reciprocal rank fusion?" }),
        }, REQUEST_TIMEOUT_MS);
        assert.equal(response.status, 200);
        assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
        assert.ok(response.body);
        const { events, endedAtMs, rest } = await readEvents(response.body, startedAt);
        const names = events.map((event) => event.event);
        const timeline = events.map((event) =>
          `${event.event}@${event.atMs.toFixed(1)}ms(read ${event.read})`
        ).join(", ");

        assert.equal(rest.trim(), "", "the stream ended mid-event");
        assert.equal(names[0], "retrieval-end", timeline);
        const deltaCount = names.slice(1).findIndex((name) => name !== "answer-delta");
        assert.ok(deltaCount >= 1, `expected answer-delta events after retrieval-end: ${timeline}`);
        assert.deepEqual(names.slice(1 + deltaCount), ["answer-end", "usage", "done"], timeline);

        const retrieval = events[0]!.data as { results: unknown[] };
        assert.ok(retrieval.results.length > 0, "retrieval-end has no results");

        const deltas = events.filter((event) => event.event === "answer-delta");
        const answerEnd = events.find((event) => event.event === "answer-end")!.data as {
          answer: string;
          citations: unknown[];
        };
        assert.match(answerEnd.answer, /\[\d+\]/);
        assert.ok(answerEnd.citations.length > 0, "answer-end has no citations");
        assert.equal(
          deltas.map((event) => (event.data as { text: string }).text).join(""),
          answerEnd.answer,
        );
        const usage = events.find((event) => event.event === "usage")!.data as {
          steps: { name: string }[];
        };
        assert.deepEqual(usage.steps.map((step) => step.name), ["retrieval", "answer"]);

        // Streamed, not buffered: the first token reached us while the answer was
        // still being written, in an earlier read than the last one.
        const firstDelta = deltas[0]!;
        const lastDelta = deltas.at(-1)!;
        assert.ok(firstDelta.atMs < endedAtMs, timeline);
        assert.ok(firstDelta.read < lastDelta.read, `deltas arrived in one read: ${timeline}`);
        assert.ok(
          lastDelta.atMs - firstDelta.atMs >= 20,
          `deltas arrived together, not paced by the model: ${timeline}`,
        );
        console.log(`workerd /v1/query: ${timeline}; ended @${endedAtMs.toFixed(1)}ms`);
      },
    );

    if (!streamed) return;
    const rejected = await t.step(
      "POST /v1/query with an empty query is a 400 naming the field",
      async () => {
        const response = await fetchWithin(client, `${baseUrl}/v1/query`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "" }),
        }, REQUEST_TIMEOUT_MS);
        assert.equal(response.status, 400);
        assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
        const body = await response.json() as { error?: { type?: unknown; message?: unknown } };
        assert.equal(body.error?.type, "invalid_request");
        assert.equal(typeof body.error?.message, "string");
        assert.match(body.error.message as string, /query/);
      },
    );
    failed = !rejected;
  } finally {
    await wrangler?.stop();
    client.close();
    if (failed && wrangler) console.error(`--- wrangler dev output ---\n${wrangler.output()}`);
    await Deno.remove(scratchDir, { recursive: true }).catch(() => {});
    // Nothing this test started may outlive it.
    if (wrangler) {
      assert.equal(
        await pgrep("-f", `workerd.*127\\.0\\.0\\.1:${wrangler.port}`),
        "",
        "a workerd from this test is still running",
      );
    }
  }
});
