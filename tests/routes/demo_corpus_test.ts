import assert from "node:assert/strict";
import { DEMO_CORPUS } from "../../shared/demo/corpus.ts";
import { testApp } from "./helpers.ts";

type ListBody = { data: { id: string }[]; next_cursor: string | null };

const DEMO_IDS = DEMO_CORPUS.map((document) => document.id!).sort();

async function documentIds(
  app: ReturnType<typeof testApp>["app"],
  env: Record<string, string>,
  namespace = "default",
): Promise<string[]> {
  const body: ListBody = await (await app.request(
    `/v1/documents?namespace=${namespace}&limit=100`,
    {},
    env,
  )).json();
  return body.data.map((document) => document.id);
}

Deno.test("the demo corpus answers a fresh start, and the user's first document in default leaves no demo page beside it", async () => {
  const { app, env, post } = testApp({});
  assert.deepEqual(await documentIds(app, env), DEMO_IDS);
  // A document elsewhere leaves the demo where it is.
  await post("/v1/documents", {
    documents: [{ id: "elsewhere", text: "Okapi live in forests." }],
    namespace: "notes",
  });
  assert.deepEqual(await documentIds(app, env), DEMO_IDS);
  const ingest = await post("/v1/documents", {
    documents: [{
      id: "okapi",
      title: "Okapi",
      text: "The okapi is a giraffid of the Congo's forests.",
    }],
  });
  assert.equal(ingest.status, 201);
  assert.deepEqual(await documentIds(app, env), ["okapi"]);
  const search = await post("/v1/search", {
    query: "what is sift and how does reranking work",
    top_k: 5,
  });
  const results = (await search.json()).results as { doc_id: string }[];
  assert.deepEqual([...new Set(results.map((hit) => hit.doc_id))], ["okapi"]);
  assert.deepEqual(await documentIds(app, env, "notes"), ["elsewhere"]);
});

Deno.test("re-ingesting a demo page keeps the demo corpus (it is not the user's own document)", async () => {
  const { app, env, post } = testApp({});
  const page = DEMO_CORPUS[0]!;
  await post("/v1/documents", { documents: [page] });
  assert.deepEqual(await documentIds(app, env), DEMO_IDS);
});
