import { ingestDocuments } from "../documents/ingest.ts";
import type { Deps } from "../deps.ts";
import { DEFAULT_NAMESPACE } from "../vector/port.ts";
import { DEMO_CORPUS } from "./corpus.ts";

const loads = new WeakMap<object, Promise<void>>();

/** Indexes that belong to sift itself, never to a user's account. */
const EMBEDDED_INDEXES = new Set(["local", "durable-object"]);

/**
 * The start-up line for an index the demo corpus never goes into (Postgres,
 * Upstash): without it a new user asks "What is sift?" of an empty `default`
 * namespace and wonders where the demo went. Undefined when there is nothing
 * to say.
 *
 * @example
 * demoCorpusNote("postgres", true); // "demo corpus: not loaded into postgres ..."
 */
export function demoCorpusNote(indexName: string, demoCorpus: boolean): string | undefined {
  if (!demoCorpus || EMBEDDED_INDEXES.has(indexName)) return undefined;
  return `demo corpus: not loaded into ${indexName} (only sift's own index gets it): the default ` +
    "namespace holds what you ingest (deno task ingest <files>), nothing on a new database.";
}

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

const retirements = new WeakMap<object, Promise<void>>();
const DEMO_IDS: ReadonlySet<string> = new Set(DEMO_CORPUS.map((document) => document.id!));

/**
 * The user's first document in the default namespace retires the demo
 * corpus there: its pages are deleted (once per runtime), so they never rank
 * beside the user's own. Writes of demo pages alone (the loader's) do not
 * count. A later start finds the namespace not empty and loads no demo.
 */
export function retireDemoCorpus(
  owner: object,
  deps: Deps,
  namespace: string,
  docIds: Iterable<string>,
): Promise<void> {
  if (!deps.config.demoCorpus || !EMBEDDED_INDEXES.has(deps.index.name)) return Promise.resolve();
  const written = new Set(docIds);
  if (namespace !== DEFAULT_NAMESPACE || [...written].every((id) => DEMO_IDS.has(id))) {
    return Promise.resolve();
  }
  let retiring = retirements.get(owner);
  if (!retiring) {
    retiring = (async () => {
      for (const id of DEMO_IDS) {
        if (!written.has(id)) await deps.index.deleteDocument(id, { namespace });
      }
    })().catch((error) => {
      retirements.delete(owner); // try again on the next write
      throw error;
    });
    retirements.set(owner, retiring);
  }
  return retiring;
}
