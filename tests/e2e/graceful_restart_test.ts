/**
 * A graceful stop of the real server after documents came in the way users
 * send them (one-chunk documents through `POST /v1/documents`, one a
 * request, several in flight) with a background checkpoint falling due every
 * few records: SIGTERM, then a start on the same directory. The stop leaves
 * no temporary file and a free directory; the start serves every document
 * acknowledged, and the same results as before the stop. Counted in
 * documents, not time: no assertion depends on how fast the machine is.
 */
import assert from "node:assert/strict";
import { mulberry32 } from "../../shared/random.ts";
import { type RunningService, startService } from "./service.ts";

const WORDS = [
  "lighthouse",
  "harbour",
  "keeper",
  "storm",
  "lantern",
  "tide",
  "reef",
  "signal",
  "fog",
  "beacon",
  "cliff",
  "gull",
  "anchor",
  "rope",
  "compass",
  "current",
];
const QUERIES = ["lighthouse keeper", "storm over the reef", "fog signal beacon", "anchor rope"];

/** Checkpoints every few one-chunk records, so a stop is likely to come during one. */
const envFor = (dataDir: string) => ({
  SIFT_DATA_DIR: dataDir,
  DEMO_CORPUS: "false",
  INDEX_CHECKPOINT_BYTES: "20000",
});

function documentOf(n: number) {
  const random = mulberry32(n + 1);
  const words = Array.from({ length: 30 }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  return { id: `note-${n}`, text: `Note ${n}: ${words.join(" ")}.` };
}

async function post(service: RunningService, path: string, body: unknown): Promise<Response> {
  return await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

/**
 * Documents `from` to `to`, one a request, `inFlight` at a time; the ids
 * acknowledged (201) go into `acknowledged`. With `untilRefused`, a refused
 * request (the server stopping) ends its worker instead of failing.
 */
async function ingest(
  service: RunningService,
  from: number,
  to: number,
  acknowledged: string[],
  options: { inFlight?: number; untilRefused?: boolean } = {},
): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) {
      const document = documentOf(next++);
      let response: Response;
      try {
        response = await post(service, "/v1/documents", { documents: [document] });
      } catch (error) {
        if (options.untilRefused) return;
        throw error;
      }
      const body = await response.text();
      if (response.status === 201) acknowledged.push(document.id);
      else if (!options.untilRefused) assert.fail(`${response.status}: ${body}`);
    }
  };
  await Promise.all(Array.from({ length: options.inFlight ?? 4 }, worker));
}

/** Each query in each mode: the ids and scores the server returns. */
async function results(service: RunningService) {
  const all: Record<string, { id: string; score: number }[]> = {};
  for (const query of QUERIES) {
    for (const mode of ["dense", "sparse", "hybrid"]) {
      const response = await post(service, "/v1/search", { query, mode, top_k: 20 });
      assert.equal(response.status, 200, await response.clone().text());
      const { results } = await response.json() as { results: { id: string; score: number }[] };
      all[`${mode} ${query}`] = results.map(({ id, score }) => ({
        id,
        score: Number(score.toPrecision(6)),
      }));
    }
  }
  return all;
}

/** No temporary file, no log left to replay, and the directory's lock free for the taking. */
async function stoppedCleanly(dataDir: string, options: { logLeft: boolean }) {
  const names = [...Deno.readDirSync(dataDir)].map((entry) => entry.name);
  assert.deepEqual(names.filter((name) => name.endsWith(".tmp")), [], "no temporary file");
  if (!options.logLeft) {
    const logBytes = names.filter((name) => /^index(\.\d+)?\.log$/.test(name))
      .reduce((sum, name) => sum + Deno.statSync(`${dataDir}/${name}`).size, 0);
    assert.equal(logBytes, 0, `a log left to replay: ${names.join(", ")}`);
  }
  const lock = await Deno.open(`${dataDir}/owner.lock`, { read: true, write: true });
  try {
    assert.ok(await lock.tryLock(true), "the stopped server released its directory");
  } finally {
    lock.close();
  }
}

Deno.test("after one-chunk documents over HTTP, SIGTERM and a restart serve the same results and replay nothing", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-graceful-" });
  let server: RunningService | undefined;
  try {
    server = await startService(envFor(dataDir));
    const acknowledged: string[] = [];
    await ingest(server, 0, 300, acknowledged);
    assert.equal(acknowledged.length, 300);
    const before = await results(server);
    assert.ok(before["sparse lighthouse keeper"]!.length > 0);
    await server.close();
    await stoppedCleanly(dataDir, { logLeft: false });
    server = await startService(envFor(dataDir));
    assert.deepEqual(await results(server), before);
  } finally {
    await server?.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a SIGTERM in the middle of an HTTP ingest (checkpoints under way) stops cleanly and keeps every acknowledged document", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-graceful-" });
  let server: RunningService | undefined;
  try {
    server = await startService(envFor(dataDir));
    const acknowledged: string[] = [];
    await ingest(server, 0, 150, acknowledged);
    // More documents keep coming while the server is told to stop.
    const running = server;
    let ended = false;
    const more = ingest(running, 150, 100_000, acknowledged, { inFlight: 6, untilRefused: true })
      .finally(() => (ended = true));
    while (acknowledged.length < 200 && !ended) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await running.close();
    await more;
    assert.ok(acknowledged.length >= 200);
    // A stop may refuse what came after it, never lose what it acknowledged; and it checkpoints
    // what it holds, so nothing is left to replay.
    await stoppedCleanly(dataDir, { logLeft: false });
    const restarted = server = await startService(envFor(dataDir));
    for (const id of acknowledged) {
      const response = await fetch(`${restarted.url}/v1/documents/${id}`);
      assert.equal(response.status, 200, `${id} acknowledged before the stop, missing after it`);
      await response.body?.cancel();
    }
  } finally {
    await server?.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
