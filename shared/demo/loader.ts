import { ingestDocuments } from "../documents/ingest.ts";
import type { Deps } from "../runtime.ts";
import { DEFAULT_NAMESPACE } from "../vector/port.ts";
import { DEMO_CORPUS } from "./corpus.ts";

const loads = new WeakMap<object, Promise<void>>();

/** Indexes that belong to sift itself, never to a user's account. */
const EMBEDDED_INDEXES = new Set(["local", "durable-object"]);

/**
 * Loads the demo corpus once per runtime, into an empty embedded index only
 * (in-process, or the Durable Object on Workers): a user's Upstash index is
 * never written to behind their back. Every process that searches does this,
 * so functions deployed apart each answer over the demo corpus with no account.
 */
export function loadDemoCorpus(owner: object, deps: Deps): Promise<void> {
  if (!deps.config.demoCorpus || !EMBEDDED_INDEXES.has(deps.index.name)) return Promise.resolve();
  let loading = loads.get(owner);
  if (!loading) {
    loading = (async () => {
      if (await deps.index.count({ namespace: DEFAULT_NAMESPACE }) > 0) return;
      await ingestDocuments(deps, {
        documents: DEMO_CORPUS,
        namespace: DEFAULT_NAMESPACE,
        chunking: deps.config.chunking,
      });
    })().catch((error) => {
      loads.delete(owner); // try again on the next request
      throw error;
    });
    loads.set(owner, loading);
  }
  return loading;
}
