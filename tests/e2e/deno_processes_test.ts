/**
 * The Deno one-process-per-function shape, run from the commands in
 * docs/deno-processes.md (their ports changed to free ones, the data directory
 * to a temporary one): what the orchestrator acknowledges is what is searched,
 * and two tenants stay apart across the HTTP hops. The all-in-one server
 * refuses the shape that split the index.
 */
import assert from "node:assert/strict";
import { readServerSentEvents } from "../../shared/http/event-reader.ts";
import { startWebhookReceiver } from "../helpers/webhook_receiver.ts";
import { freePort, type RunningService, SERVE_PERMISSIONS, startService } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PAGE = `${ROOT}docs/deno-processes.md`;
const SECRET = "whsec_" + btoa("sift-processes-webhook-secret-012");
const KEYS = { API_KEYS: "ka:acme,kb:globex,kc:acme", AUTH_FAILURES_PER_MINUTE: "3" };

type Command = { env: Record<string, string>; fn: string };

/** The page's first `sh` block: one command each, `VAR=value ... deno task serve <fn>`. */
async function commandsOfPage(): Promise<Command[]> {
  const page = await Deno.readTextFile(PAGE);
  const block = /```sh\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(block, "docs/deno-processes.md has a sh block");
  // A line ending in `\` goes on on the next, as in a shell.
  return block.trim().replace(/\\\n\s*/g, "").split("\n").map((line) => {
    const match = /^((?:[A-Z_]+=\S+ )*)npx -y deno@[\d.]+ task serve ([a-z-]+)$/.exec(line.trim());
    assert.ok(match, `not a serve command: ${line}`);
    const env = Object.fromEntries(
      match[1]!.trim().split(" ").filter(Boolean).map((pair) => {
        const at = pair.indexOf("=");
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    );
    return { env, fn: match[2]! };
  });
}

/** `env` with each page port in a URL replaced by the port its process really got. */
function withPorts(env: Record<string, string>, ports: Map<string, number>) {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(/127\.0\.0\.1:(\d+)/g, (all, port) => {
        const real = ports.get(port);
        return real ? `127.0.0.1:${real}` : all;
      }),
    ]),
  );
}

async function call(service: RunningService, key: string, path: string, body?: unknown) {
  return await fetch(`${service.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
}

async function searched(service: RunningService, key: string): Promise<string[]> {
  const response = await call(service, key, "/v1/search", { query: "harbour pilot tides" });
  assert.equal(response.status, 200, await response.clone().text());
  const { results } = await response.json() as { results: { doc_id: string }[] };
  return results.map((hit) => hit.doc_id);
}

async function retrieved(service: RunningService, key: string): Promise<string[]> {
  const response = await call(service, key, "/v1/query", {
    query: "When does the harbour pilot board at the tides?",
  });
  assert.equal(response.status, 200);
  const events = await Array.fromAsync(readServerSentEvents(response.body!));
  const end = events.find((event) => event.event === "retrieval-end")?.data as {
    results: { doc_id: string }[];
  };
  assert.ok(end, JSON.stringify(events.find((event) => event.event === "error")));
  return end.results.map((hit) => hit.doc_id);
}

Deno.test("the page's processes find through the orchestrator what it acknowledged, tenants apart", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-processes-" });
  const commands = await commandsOfPage();
  const orchestrator = commands.at(-1)!;
  assert.equal(orchestrator.fn, "orchestrator");
  const services: RunningService[] = [];
  const receiver = startWebhookReceiver(SECRET);
  try {
    const ports = new Map<string, number>();
    const steps = await Promise.all(
      commands.slice(0, -1).map(async (command) => {
        const env: Record<string, string> = { ...command.env, ...KEYS, DEMO_CORPUS: "false" };
        if (env.SIFT_DATA_DIR) env.SIFT_DATA_DIR = `${dataDir}/${env.SIFT_DATA_DIR}`;
        const service = await startService(env, ["scripts/serve.ts", command.fn]);
        services.push(service);
        ports.set(command.env.PORT!, Number(new URL(service.url).port));
        return { fn: command.fn, service };
      }),
    );
    // Like the page's processes, it keeps its jobs (Deno KV) in the default `.data`, beside the index.
    const front = await startService(
      {
        ...withPorts(orchestrator.env, ports),
        ...KEYS,
        SIFT_DATA_DIR: `${dataDir}/.data`,
        WEBHOOK_SECRET: SECRET,
        ALLOW_PRIVATE_CALLBACKS: "true",
      },
      ["scripts/serve.ts", "orchestrator"],
    );
    services.push(front);
    assert.ok(!Object.values(withPorts(orchestrator.env, ports)).some((v) => /:879\d/.test(v)));

    const ingested = await call(front, "ka", "/v1/documents", {
      documents: [{ id: "pilot", text: "The harbour pilot boards two hours before high tides." }],
    });
    assert.equal(ingested.status, 201, await ingested.text());
    assert.deepEqual(await searched(front, "kc"), ["pilot"]);
    assert.deepEqual(await retrieved(front, "kc"), ["pilot"]);
    assert.deepEqual(await searched(front, "kb"), []);
    assert.deepEqual(await retrieved(front, "kb"), []);
    // It is in the index process's index, under acme alone.
    const index = steps.find((step) => step.fn === "index")!.service;
    assert.deepEqual(await searched(index, "ka"), ["pilot"]);
    assert.deepEqual(await searched(index, "kb"), []);

    // A job accepted by the orchestrator runs as its tenant and is delivered.
    const job = await call(front, "ka", "/v1/jobs", {
      route: "/v1/search",
      body: { query: "harbour pilot tides" },
      callback_url: receiver.url,
    });
    assert.equal(job.status, 202, await job.clone().text());
    const [delivery] = await receiver.waitFor(((await job.json()) as { id: string }).id, 1);
    assert.match(JSON.stringify(delivery!.json), /"doc_id":"pilot"/);

    // Wrong keys over a real connection: 401 three times, then 429 for this address.
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const response = await call(front, `guess-${i}`, "/v1/models");
      await response.body?.cancel();
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  } finally {
    await Promise.all(services.map((service) => service.close()));
    await receiver.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("the all-in-one server with STEP_URL_FUSE and no shared index refuses to start", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-processes-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...SERVE_PERMISSIONS,
        "main.ts",
      ],
      cwd: ROOT,
      env: {
        SIFT_DATA_DIR: dataDir,
        PORT: String(freePort()),
        STEP_URL_FUSE: "http://127.0.0.1:9",
        NO_COLOR: "1",
      },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000),
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 1, stderr);
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, /^sift cannot start: STEP_URL_FUSE would send index work/);
    assert.match(stderr, /docs\/deno-processes\.md/);
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
