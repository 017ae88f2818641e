import assert from "node:assert/strict";
import { FileIndexLog } from "./deno/file-index-log.ts";
import { EmbeddedIndex } from "./index.ts";
import type { NamespaceView } from "./snapshot.ts";
import type { IndexedChunk } from "./types.ts";

/*
 * A stop (`flush`, then the files released) that comes while a background
 * checkpoint is being written gives that one up and writes one checkpoint of
 * everything: no temporary file is left, nothing is lost, and the next start
 * has no log to replay. One-chunk documents, one record each, as HTTP ingest
 * writes them. No timing: a checkpoint is caught in flight because the stop
 * is called in the same turn as the write that started it, before any of its
 * file operations can complete.
 */

/** Records every checkpoint asked of it and how each ended. */
class WatchedLog extends FileIndexLog {
  readonly outcomes: Promise<"written" | "given up" | "failed">[] = [];

  override checkpoint(
    namespaces: Map<string, NamespaceView>,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const written = super.checkpoint(namespaces, options);
    this.outcomes.push(written.then(
      () => "written" as const,
      (error) =>
        error instanceof DOMException && error.name === "AbortError" ? "given up" : "failed",
    ));
    return written;
  }
}

function oneChunkDocument(n: number): IndexedChunk {
  const vector = new Array(16).fill(0);
  vector[n % 16] = 1;
  vector[(n * 7) % 16] += 0.5;
  return {
    id: `doc-${n}#0`,
    text: `document ${n} about ${n % 2 ? "lighthouses" : "harbours"} and word${n % 11}`,
    vector,
    metadata: { doc_id: `doc-${n}`, chunk_index: 0 },
  };
}

const files = (directory: string) => [...Deno.readDirSync(directory)].map((entry) => entry.name);

Deno.test("a stop during a background checkpoint gives it up and leaves one checkpoint of everything, no temporary file", async () => {
  const directory = await Deno.makeTempDir({ prefix: "vector-index-stop-" });
  try {
    const log = new WatchedLog(`${directory}/index.log`);
    // A checkpoint falls due every few records.
    const index = new EmbeddedIndex({ log, checkpointMinBytes: 2_000 });
    await index.open();
    let n = 0;
    // Ingest until a write starts the third checkpoint, then stop in the same turn (the two
    // before it are let finish, so the third is the one caught in flight).
    while (log.outcomes.length < 3) {
      await Promise.all(log.outcomes);
      await index.upsert([oneChunkDocument(n++)], { namespace: "default" });
    }
    await index.flush();
    log.close();
    const outcomes = await Promise.all(log.outcomes);
    assert.deepEqual(outcomes.slice(0, 2), ["written", "written"]);
    assert.equal(outcomes[2], "given up", "the checkpoint in flight was given up");
    assert.deepEqual(outcomes.slice(3), ["written"], "then one checkpoint of everything");
    const left = files(directory);
    assert.deepEqual(left.filter((name) => name.endsWith(".tmp")), [], "no temporary file");
    assert.deepEqual(left.filter((name) => name.endsWith(".log")), [], "no log left to replay");

    const reopened = new FileIndexLog(`${directory}/index.log`);
    const loaded = await reopened.load();
    assert.equal(loaded.records.length, 0, "the next start replays nothing");
    const again = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await again.count({ namespace: "default" }), n, "every document is there");
    const hits = await again.query({
      namespace: "default",
      mode: "sparse",
      text: `word${(n - 1) % 11}`,
      topK: n,
    });
    assert.ok(hits.some((hit) => hit.id === `doc-${n - 1}#0`), "the last write is found");
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("a checkpoint given up leaves its records counted in the tail, so the next one covers them", async () => {
  const directory = await Deno.makeTempDir({ prefix: "vector-index-stop-" });
  try {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
    await index.open();
    for (let n = 0; n < 5; n++) {
      await index.upsert([oneChunkDocument(n)], { namespace: "default" });
    }
    const tail = log.tailBytes;
    const giveUp = new AbortController();
    const given = log.checkpoint(new Map(), { signal: giveUp.signal });
    giveUp.abort();
    await assert.rejects(given, (error: unknown) => (error as Error).name === "AbortError");
    assert.equal(log.tailBytes, tail, "its records are a tail again");
    assert.deepEqual(files(directory).filter((name) => name.endsWith(".tmp")), []);
    await index.flush();
    log.close();
    const loaded = await new FileIndexLog(`${directory}/index.log`).load();
    assert.equal(loaded.records.length, 0);
    assert.equal(loaded.checkpoint?.get("default")?.keys.length, 5);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
