import type { VectorIndex } from "../vector/port.ts";

const inner = new WeakMap<VectorIndex, VectorIndex>();

/** The index a `lazyIndex` wraps (the index itself otherwise): for probes that must not wait. */
export function withoutDemoCorpus(index: VectorIndex): VectorIndex {
  return inner.get(index) ?? index;
}

/**
 * The index as routes see it when the demo corpus may still need loading:
 * every call first awaits `ready()` (the loader), so only routes that touch
 * the index wait on it. A failed load is logged and the call goes on against
 * the index as it is; `ready()` tries again on a later call.
 *
 * `afterWrite` runs after each write that succeeded, with the namespace and
 * the documents written (the demo corpus retires when the user's first
 * document arrives); its failure is logged, never the write's.
 *
 * @example
 * const index = lazyIndex(deps.index, () => loadDemoCorpus(runtime, deps));
 */
export function lazyIndex(
  index: VectorIndex,
  ready: () => Promise<void>,
  afterWrite: (namespace: string, docIds: Set<string>) => Promise<void> = () => Promise.resolve(),
): VectorIndex {
  // Once a load has succeeded, calls go straight to the index: `ready()` answers at once from
  // then on (its promise is kept), and awaiting it cost each search a few promise hops.
  let settled = false;
  const loaded = async () => {
    try {
      await ready();
      settled = true;
    } catch (error) {
      console.warn(
        "demo corpus not loaded (will retry):",
        error instanceof Error ? error.message : error,
      );
    }
  };
  const written = async (namespace: string, docIds: Iterable<string>) => {
    try {
      await afterWrite(namespace, new Set(docIds));
    } catch (error) {
      console.warn("after a write:", error instanceof Error ? error.message : error);
    }
  };
  const wrapped: VectorIndex = {
    name: index.name,
    upsert: async (chunks, options) => {
      await loaded();
      await index.upsert(chunks, options);
      await written(options.namespace, chunks.map((chunk) => chunk.metadata.doc_id));
    },
    replaceDocuments: async (docIds, chunks, options) => {
      await loaded();
      await index.replaceDocuments(docIds, chunks, options);
      await written(options.namespace, [
        ...docIds,
        ...chunks.map((chunk) => chunk.metadata.doc_id),
      ]);
    },
    query: (query) => settled ? index.query(query) : loaded().then(() => index.query(query)),
    deleteDocument: async (docId, options) => (
      await loaded(), await index.deleteDocument(docId, options)
    ),
    count: async (options) => (await loaded(), await index.count(options)),
    listDocuments: async (options) => (await loaded(), await index.listDocuments(options)),
    getDocument: async (docId, options) => (
      await loaded(), await index.getDocument(docId, options)
    ),
  };
  inner.set(wrapped, index);
  return wrapped;
}
