import assert from "node:assert/strict";
import { IndexDamagedError } from "../errors.ts";
import { EmbeddedIndex } from "../index.ts";
import { prepareChunk } from "../prepared.ts";
import { FileIndexLog } from "./file-index-log.ts";
import { entryNames, withDirectory } from "../fixtures/temp-directory.ts";

const NS = { namespace: "default" };
const chunk = (doc: string, text: string) => ({
  id: `${doc}#0`,
  text,
  vector: [1, text.length % 7, 2],
  metadata: { doc_id: doc, chunk_index: 0 },
});

Deno.test("FileIndexLog: records, a checkpoint and records after it come back in order", () =>
  withDirectory("sift-file-log-", async (directory) => {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
    await index.upsert([chunk("a", "alpha"), chunk("b", "beta")], NS);
    await index.flush();
    assert.deepEqual(entryNames(directory), ["index.ckpt"]);
    await index.replaceDocuments(["a"], [chunk("a", "alpha two")], NS);
    await index.deleteDocument("b", NS);
    log.close();
    assert.deepEqual(entryNames(directory), ["index.1.log", "index.ckpt"]);

    const reread = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await reread.count(NS), 1);
    const [hit] = await reread.query({ text: "alpha", mode: "sparse", topK: 5, ...NS });
    assert.equal(hit!.text, "alpha two");
  }));

Deno.test("FileIndexLog: a newer log is replayed even when the checkpoint that began it never landed", () =>
  withDirectory("sift-file-log-", async (directory) => {
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
    const before = new EmbeddedIndex({ log: first0 });
    // index.log was emptied above: only log 1's record remains, and it must be read.
    assert.equal(await before.count(NS), 1);
    assert.ok(
      !entryNames(directory).some((name) => name.endsWith(".tmp")),
      "temporary file removed",
    );
  }));

Deno.test("FileIndexLog: logs older than the checkpoint are removed at load", () =>
  withDirectory("sift-file-log-", async (directory) => {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new EmbeddedIndex({ log });
    await index.upsert([chunk("a", "alpha")], NS);
    await index.flush();
    log.close();
    await Deno.writeTextFile(`${directory}/index.log`, "stale");
    const reread = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await reread.count(NS), 1);
    assert.deepEqual(entryNames(directory), ["index.ckpt"]);
  }));

Deno.test("FileIndexLog: a flipped byte in a checkpoint names the file and the frame's byte, and changes nothing", () =>
  withDirectory("sift-file-log-", async (directory) => {
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
    await index.upsert([chunk("a", "alpha"), chunk("b", "beta"), chunk("c", "gamma")], NS);
    await index.flush();
    log.close();
    const path = `${directory}/index.ckpt`;
    const bytes = await Deno.readFile(path);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    await Deno.writeFile(path, bytes);

    const reread = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    const error = await reread.count(NS).then(() => undefined, (error: unknown) => error);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.ok(error.offset >= 0 && error.offset <= bytes.length >> 1, String(error.offset));
    assert.match(error.message, /is damaged at byte \d+ \(.+\); nothing was changed$/);
    assert.deepEqual(await Deno.readFile(path), bytes, "the checkpoint is left as it was");
    assert.deepEqual(entryNames(directory), ["index.ckpt"]);
  }));

/** What `run` wrote to stderr through `console.error`. */
async function stderrOf(run: () => Promise<void>): Promise<string> {
  const original = console.error;
  const lines: string[] = [];
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return lines.join("\n");
}

for (
  const [how, damage] of [
    ["a byte flipped in", (bytes: Uint8Array, last: number) => (bytes[last + 20]! ^= 0x01, bytes)],
    ["half of", (bytes: Uint8Array, last: number) => bytes.slice(0, last + 12)],
  ] as const
) {
  Deno.test(`FileIndexLog: ${how} the last record is cut, said with file, offset and count, until acknowledged`, () =>
    withDirectory("sift-file-log-", async (directory) => {
      const path = `${directory}/index.log`;
      const log = new FileIndexLog(path);
      const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
      await index.upsert([chunk("a", "alpha")], NS);
      const last = (await Deno.stat(path)).size;
      await index.upsert([chunk("b", "beta")], NS);
      log.close();
      const damaged = damage(await Deno.readFile(path), last);
      await Deno.writeFile(path, damaged);

      const reread = new FileIndexLog(path);
      const again = new EmbeddedIndex({ log: reread, checkpointMinBytes: 1 << 30 });
      assert.deepEqual(again.status(), { status: "loading" });
      let count = 0;
      const said = await stderrOf(async () => void (count = await again.count(NS)));
      assert.equal(count, 1, "the cut record's document is gone, the one before stays");
      const status = again.status();
      assert.ok(status.status === "ok" && status.recovered, JSON.stringify(status));
      const { at, ...recovered } = status.recovered;
      const dropped_bytes = damaged.length - last;
      assert.deepEqual(recovered, { file: path, offset: last, dropped_records: 1, dropped_bytes });
      assert.ok(Math.abs(Date.parse(at) - Date.now()) < 60_000, at);
      assert.match(said, new RegExp(`index log ${path}: the last record \\(byte ${last} on`));
      assert.match(said, /1 record dropped/);
      assert.equal((await Deno.stat(path)).size, last, "appends follow the good records");

      await again.upsert([chunk("c", "gamma")], NS);
      await again.flush();
      assert.deepEqual(again.status(), status, "a checkpoint does not end the notice");
      assert.deepEqual(await again.acknowledgeRecovered(), [status.recovered]);
      assert.deepEqual(again.status(), { status: "ok" }, "acknowledging ends it");
      reread.close();
    }));
}
