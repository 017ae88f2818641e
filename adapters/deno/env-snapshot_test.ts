import assert from "node:assert/strict";
import process from "node:process";
import { EnvSnapshot } from "./env-snapshot.ts";

Deno.test("EnvSnapshot.read() hands out the same object while the environment is unchanged", () => {
  const environment = new EnvSnapshot();
  const first = environment.read();
  assert.equal(environment.read(), first);
  assert.deepEqual(first, Deno.env.toObject());
});

Deno.test("EnvSnapshot.read() sees Deno.env.set, Deno.env.delete and process.env at once", () => {
  const environment = new EnvSnapshot({ recheckMs: 60_000 });
  const before = environment.read();
  try {
    Deno.env.set("SIFT_SNAPSHOT_TEST", "1");
    const set = environment.read();
    assert.notEqual(set, before);
    assert.equal(set.SIFT_SNAPSHOT_TEST, "1");
    process.env.SIFT_SNAPSHOT_TEST = "2";
    assert.equal(environment.read().SIFT_SNAPSHOT_TEST, "2");
    Deno.env.delete("SIFT_SNAPSHOT_TEST");
    assert.equal(environment.read().SIFT_SNAPSHOT_TEST, undefined);
  } finally {
    Deno.env.delete("SIFT_SNAPSHOT_TEST");
  }
});

Deno.test("EnvSnapshot.read() keeps the object when a set leaves the contents as they were", () => {
  const environment = new EnvSnapshot();
  const before = environment.read();
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", path);
  assert.equal(environment.read(), before);
});

Deno.test("EnvSnapshot.read() copies the environment again after recheckMs even with no set seen", async () => {
  const environment = new EnvSnapshot({ recheckMs: 0 });
  const before = environment.read();
  await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(environment.read(), before); // read again, same contents: the same object
});
