/**
 * The log's tail after a kill -9 (#29): a byte flipped in the last record
 * makes the next start cut that record, and it says so, in its log and on
 * `/healthz` (`degraded`: the file, the byte, how many records and bytes
 * went), across the checkpoint that folds the log away, until an operator
 * acknowledges it (#40).
 */
import assert from "node:assert/strict";
import { type RunningService, startService } from "./service.ts";

const ENV = { DEMO_CORPUS: "false", NO_COLOR: "1" };

type Recovered = { file: string; offset: number; dropped_records: number; dropped_bytes: number };
type Health = {
  status: string;
  index?: { status: string; recovered?: Recovered & { at: string } };
};

async function ingest(service: RunningService, id: string): Promise<void> {
  const response = await fetch(`${service.url}/v1/documents`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documents: [{ id, text: `Document ${id} about tails. `.repeat(10) }] }),
  });
  assert.equal(response.status, 201, await response.text());
}

const health = async (service: RunningService) =>
  await (await fetch(`${service.url}/healthz`)).json() as Health;

Deno.test({
  name:
    "a byte flipped in the last log record after kill -9: cut, logged and on /healthz until acknowledged",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir();
    const env = { ...ENV, SIFT_DATA_DIR: dataDir };
    const log = `${dataDir}/index.log`;
    let lastRecordAt: number;
    {
      const first = await startService(env);
      await ingest(first, "kept-1");
      await ingest(first, "kept-2");
      lastRecordAt = (await Deno.stat(log)).size;
      await ingest(first, "cut");
      await first.crash();
    }
    const bytes = await Deno.readFile(log);
    const inside = lastRecordAt + Math.floor((bytes.length - lastRecordAt) / 2);
    bytes[inside] = bytes[inside]! ^ 0x01;
    await Deno.writeFile(log, bytes);

    {
      await using second = await startService(env);
      const state = await health(second);
      assert.equal(state.status, "degraded");
      const { at: _, ...recovered } = state.index?.recovered ?? {};
      assert.deepEqual(recovered, {
        file: log,
        offset: lastRecordAt,
        dropped_records: 1,
        dropped_bytes: bytes.length - lastRecordAt,
      });
      assert.match(
        second.output(),
        new RegExp(
          `index log ${log}: the last record \\(byte ${lastRecordAt} on, .*1 record dropped`,
        ),
      );
      const documents = await (await fetch(`${second.url}/v1/documents`)).json() as {
        data: { id: string }[];
      };
      assert.deepEqual(documents.data.map((document) => document.id).sort(), [
        "kept-1",
        "kept-2",
      ]);
      // A clean stop checkpoints: the cut log is gone, the notice is not.
      await second.close();
      await using third = await startService(env);
      assert.deepEqual((await health(third)).index, state.index);
      const acknowledged = await fetch(`${third.url}/v1/index/recovered`, { method: "DELETE" });
      assert.deepEqual(await acknowledged.json(), { acknowledged: [state.index?.recovered] });
      await third.close();
    }
    await using fourth = await startService(env);
    const state = await health(fourth);
    assert.equal(state.status, "ok");
    assert.deepEqual(state.index, { status: "ok" });
    await fourth.close();
    await Deno.remove(dataDir, { recursive: true });
  },
});
