import assert from "node:assert/strict";
import { demoCorpusNote } from "./loader.ts";

Deno.test("demoCorpusNote() says the demo corpus is not in Postgres or Upstash, and nothing for sift's own index", () => {
  for (const index of ["postgres", "upstash-vector"]) {
    const note = demoCorpusNote(index, true);
    assert.ok(note?.startsWith(`demo corpus: not loaded into ${index}`), note ?? "no note");
    assert.match(note!, /deno task ingest/);
  }
  assert.equal(demoCorpusNote("local", true), undefined);
  assert.equal(demoCorpusNote("durable-object", true), undefined);
  assert.equal(demoCorpusNote("postgres", false), undefined, "DEMO_CORPUS=false asked for none");
});
