import assert from "node:assert/strict";
import { LocalIndex } from "../vector/local.ts";
import { prepareChunk } from "../vector/local/prepared.ts";
import { FileIndexLog } from "./file-index-log.ts";

const NS = { namespace: "default" };
const chunk = (doc: string, text: string) => ({
  id: `${doc}#0`,
  text,
  vector: [1, text.length % 7, 2],
  metadata: { doc_id: doc, chunk_index: 0 },
});

async function withDirectory(test: (directory: string) => Promise<void>) {
  const directory = await Deno.makeTempDir({ prefix: "sift-file-log-" });
  try {
    await test(directory);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}

const names = (directory: string) =>
  [...Deno.readDirSync(directory)].map((entry) => entry.name).sort();

Deno.test("FileIndexLog: records, a checkpoint and records after it come back in order", () =>
  withDirectory(async (directory) => {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new LocalIndex({ log, checkpointMinBytes: 1 << 30 });
    await index.upsert([chunk("a", "alpha"), chunk("b", "beta")], NS);
    await index.flush();
    assert.deepEqual(names(directory), ["index.ckpt"]);
    await index.replaceDocuments(["a"], [chunk("a", "alpha two")], NS);
    await index.deleteDocument("b", NS);
    log.close();
    assert.deepEqual(names(directory), ["index.1.log", "index.ckpt"]);

    const reread = new LocalIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await reread.count(NS), 1);
    const [hit] = await reread.query({ text: "alpha", mode: "sparse", topK: 5, ...NS });
    assert.equal(hit!.text, "alpha two");
  }));

Deno.test("FileIndexLog: a newer log is replayed even when the checkpoint that began it never landed", () =>
  withDirectory(async (directory) => {
    const first = new FileIndexLog(`${directory}/index.log`);
    await first.load();
    const record = (doc: string, text: string) => ({
      namespace: "default",
      remove: [doc],
      put: [prepareChunk(chunk(doc, text))],
    });
    await first.append(record("a", "alpha"));
    first.close();
    // What a kill leaves between the switch to log 1 and the rename: log 1 and a temporary file.
    const second = new FileIndexLog(`${directory}/index.log`);
    await second.load();
    const pending = second.checkpoint(new Map()); // switches appends to index.1.log at once
    await second.append(record("b", "beta"));
    await pending;
    second.close();
    // Undo the rename: the old checkpoint (none) stands, as if the kill came before it.
    await Deno.remove(`${directory}/index.ckpt`);
    await Deno.writeTextFile(`${directory}/index.log`, "");
    await Deno.writeTextFile(`${directory}/index.ckpt.123.tmp`, "half a checkpoint");
    const first0 = new FileIndexLog(`${directory}/index.log`);
    const before = new LocalIndex({ log: first0 });
    // index.log was emptied above: only log 1's record remains, and it must be read.
    assert.equal(await before.count(NS), 1);
    assert.ok(!names(directory).some((name) => name.endsWith(".tmp")), "temporary file removed");
  }));

Deno.test("FileIndexLog: logs older than the checkpoint are removed at load", () =>
  withDirectory(async (directory) => {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new LocalIndex({ log });
    await index.upsert([chunk("a", "alpha")], NS);
    await index.flush();
    log.close();
    await Deno.writeTextFile(`${directory}/index.log`, "stale");
    const reread = new LocalIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await reread.count(NS), 1);
    assert.deepEqual(names(directory), ["index.ckpt"]);
  }));
