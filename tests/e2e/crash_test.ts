/**
 * Nothing acknowledged is lost: the real server re-ingests documents in a
 * loop (each version with another number of chunks, so a mix shows) and is
 * killed with SIGKILL, 20 times: after a random number (2 to 5) of
 * acknowledged ingests and a random pause, so it lands anywhere in the next
 * one. Counted in ingests, not in time, the trials check as much on a loaded
 * machine as on a quiet one. After each restart every
 * document is there, whole, at the last version acknowledged or the one in
 * flight, never a mix of two, and no temporary file is left. The log is
 * rewritten every few ingests, so some kills land inside a rewrite. Run twice:
 * with the offline model's hashed vectors (postings), and with 1,536-d dense
 * vectors from an OpenAI-compatible server (int8 rows in the log and checkpoints).
 */
import assert from "node:assert/strict";
import { serveDenseEmbeddings } from "../../scripts/dense-embeddings.ts";
import { readCheckpoint } from "../../lib/vector-index/mod.ts";
import { mulberry32 } from "../../shared/random.ts";
import { type RunningService, startService } from "./service.ts";

const TRIALS = 20;
/** Acknowledged ingests before each kill: at least this many, and up to 3 more. */
const MIN_ACKS_PER_TRIAL = 2;
const DOCUMENTS = 20;
/** Checkpoints every few ingests, so some kills land inside one. */
const ENV = {
  DEMO_CORPUS: "false",
  CHUNK_SIZE: "20",
  CHUNK_OVERLAP: "0",
  INDEX_CHECKPOINT_BYTES: "200000",
};

/** Version v of document d: (2 + v % 3) chunks of 20 words, each saying which version it is. */
function documentText(d: number, version: number): string {
  const chunks = 2 + (version % 3);
  return Array.from({ length: chunks * 20 }, (_, i) => i % 20 === 0 ? `v${version}` : `doc${d}`)
    .join(" ");
}

function chunksOf(version: number): number {
  return 2 + (version % 3);
}

async function post(service: RunningService, path: string, body: unknown): Promise<Response> {
  return await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

/** The versions of a document's chunks, as the index returns them. */
async function versionsOf(
  service: RunningService,
  d: number,
  mode: "sparse" | "dense" = "sparse",
): Promise<number[]> {
  const response = await post(service, "/v1/search", {
    query: `doc${d}`,
    mode,
    top_k: 100,
    filter: { doc_id: `d${d}` },
  });
  assert.equal(response.status, 200, await response.clone().text());
  const { results } = await response.json() as { results: { text: string }[] };
  return results.map((hit) => Number(/v(\d+)/.exec(hit.text)![1]));
}

Deno.test("a server killed at random points of repeated re-ingests loses nothing acknowledged", async () => {
  await killedAtRandom(ENV, "sparse");
});

Deno.test("killed at random points of re-ingests of dense 1,536-d documents, it loses nothing acknowledged", async () => {
  const embeddings = serveDenseEmbeddings({ dimensions: 1536 });
  try {
    await killedAtRandom(
      { ...ENV, LLM_BASE_URL: `${embeddings.url}/v1`, LLM_API_KEY: "test" },
      "dense",
    );
  } finally {
    await embeddings.stop();
  }
});

/** The trials, checking each document's chunks through `mode` search after every restart. */
async function killedAtRandom(env: Record<string, string>, mode: "sparse" | "dense") {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-crash-" });
  const random = mulberry32(7);
  const acknowledged = new Map<number, number>(); // document -> last version acknowledged
  let version = 0;
  let service: RunningService | undefined;
  let previousCheckpoint = "";
  let checkpoints = 0;
  let checked = 0; // documents found whole at an acknowledged (or later, in-flight) version
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      service = await startService({ ...env, SIFT_DATA_DIR: dataDir });
      const running = service;
      // Writes in a loop until the kill; each acknowledged one is recorded.
      let stop = false;
      const wanted = MIN_ACKS_PER_TRIAL + Math.floor(random() * 4);
      let acks = 0;
      const enough = Promise.withResolvers<void>();
      const writer = (async () => {
        while (!stop) {
          const next = ++version;
          const documents = Array.from({ length: DOCUMENTS }, (_, d) => ({
            id: `d${d}`,
            text: documentText(d, next),
          }));
          try {
            const response = await post(running, "/v1/documents", { documents });
            await response.body?.cancel();
            if (response.status !== 201) throw new Error(`ingest answered ${response.status}`);
            for (let d = 0; d < DOCUMENTS; d++) acknowledged.set(d, next);
            if (++acks >= wanted) enough.resolve();
          } catch {
            return; // the server is gone
          }
        }
      })().finally(() => enough.resolve());
      await enough.promise;
      assert.ok(acks >= wanted, `trial ${trial}: ${acks} of ${wanted} ingests acknowledged`);
      // A random pause: the kill lands before, inside or after the next ingest or checkpoint.
      await new Promise((resolve) => setTimeout(resolve, random() * 150));
      stop = true;
      await running.crash();
      await writer;

      service = await startService({ ...env, SIFT_DATA_DIR: dataDir });
      for (let d = 0; d < DOCUMENTS; d++) {
        const versions = await versionsOf(service, d, mode);
        const last = acknowledged.get(d);
        if (last === undefined && versions.length === 0) continue; // never acknowledged
        assert.ok(versions.length > 0, `trial ${trial}: document d${d} is gone`);
        const found = versions[0]!;
        assert.ok(
          versions.every((v) => v === found),
          `trial ${trial}: d${d} mixes versions ${versions}`,
        );
        assert.equal(versions.length, chunksOf(found), `trial ${trial}: d${d} v${found} chunks`);
        // A version sent but never acknowledged (cut by a kill) may have landed; an older one may not.
        assert.ok(
          (last === undefined || found >= last) && found <= version,
          `trial ${trial}: d${d} has v${found}; acknowledged v${last}, last sent v${version}`,
        );
        checked++;
      }
      // Killed again: a graceful stop would checkpoint, and the kills are what is tested.
      await service.crash();
      service = undefined;
      const leftovers = [...Deno.readDirSync(dataDir)].map((entry) => entry.name)
        .filter((name) => name.endsWith(".tmp"));
      assert.deepEqual(leftovers, [], `trial ${trial}: temporary files left`);
      const files = [...Deno.readDirSync(dataDir)].map((entry) => entry.name).sort();
      const logs = files.filter((name) => name.endsWith(".log"));
      // Every log left holds records after the checkpoint (kills that cut off checkpoints in a
      // row leave several); none that the checkpoint already holds.
      const since = files.includes("index.ckpt")
        ? readCheckpoint(Deno.readFileSync(`${dataDir}/index.ckpt`)).generation
        : 0;
      const generationOf = (name: string) => Number(/^index\.(\d+)\.log$/.exec(name)?.[1] ?? 0);
      const superseded = logs.filter((name) => generationOf(name) < since);
      assert.deepEqual(superseded, [], `trial ${trial}: superseded logs left: ${logs}`);
      const checkpoint = logs.join();
      if (checkpoint !== previousCheckpoint && files.includes("index.ckpt")) checkpoints++;
      previousCheckpoint = checkpoint;
    }
    // Every trial acknowledged every document at least twice, so each was checked each time.
    assert.equal(checked, TRIALS * DOCUMENTS, "documents checked after the kills");
    console.log(
      `${version} ingests, ${checked} documents checked, ` +
        `${checkpoints} trials saw a new checkpoint`,
    );
    assert.ok(checkpoints > 0, "no checkpoint was ever written: the kills never met one");
  } finally {
    await service?.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}
