import {
  IndexDamagedError as DamagedFile,
  IndexInputError,
  IndexUnreadableError,
} from "../../lib/vector-index/mod.ts";
import { EmbeddedIndex, type IndexStatus } from "../../lib/vector-index/mod.ts";
import type { IndexLog, RecoveredTail } from "../../lib/vector-index/mod.ts";
import { decodeDocumentCursor, encodeDocumentCursor } from "../../lib/vector-index/mod.ts";
import { IndexDamagedError, InvalidRequestError, SiftError } from "../../shared/errors.ts";
import {
  type DocumentPage,
  documentSummary,
  type IndexedChunk,
  type SearchHit,
  type StoredChunk,
  type VectorIndex,
  type VectorQuery,
} from "../../shared/vector/port.ts";

export type { IndexStatus };

/**
 * sift's vector port over the embedded index (`lib/vector-index/`): dense
 * cosine, BM25 and their fusion, durable through an `IndexLog`. The library
 * knows nothing of HTTP; this adapter turns its errors into sift's family
 * (a caller's mistake a 400, a damaged file `index_damaged` 503 naming the
 * file and the byte, an unreadable log a 500) and its listings into pages.
 */
export class LocalIndex implements VectorIndex {
  readonly name = "local";
  readonly #index: EmbeddedIndex;

  constructor(options: { log?: IndexLog; checkpointMinBytes?: number } = {}) {
    this.#index = new EmbeddedIndex(options);
  }

  /** Starts loading the log now; calls made meanwhile wait for it. */
  open(): Promise<void> {
    return siftErrors(this.#index.open());
  }

  /** `loading`, `failed`, or `ok` with the records loads cut from the log's end. */
  status(): IndexStatus {
    return this.#index.status();
  }

  /** Forgets `status().recovered` (an operator has seen it); resolves to the cuts it held. */
  acknowledgeRecovered(): Promise<readonly RecoveredTail[]> {
    return siftErrors(this.#index.acknowledgeRecovered());
  }

  upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void> {
    return siftErrors(this.#index.upsert(chunks, options));
  }

  replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    return siftErrors(this.#index.replaceDocuments(docIds, chunks, options));
  }

  deleteDocument(docId: string, options: { namespace: string }): Promise<number> {
    return siftErrors(this.#index.deleteDocument(docId, options));
  }

  /** Checkpoints whatever the log holds since the last checkpoint (at shutdown). */
  flush(): Promise<void> {
    return siftErrors(this.#index.flush());
  }

  count(options: { namespace: string }): Promise<number> {
    return siftErrors(this.#index.count(options));
  }

  /** Documents by id; the cursor is the last id of the page before. */
  listDocuments(
    options: { namespace: string; limit: number; cursor?: string | undefined },
  ): Promise<DocumentPage> {
    return siftErrors((async () => {
      const after = options.cursor === undefined ? undefined : decodeDocumentCursor(options.cursor);
      const { documents, more } = await this.#index.listDocuments({
        namespace: options.namespace,
        limit: options.limit,
        after,
      });
      const page = documents.map(({ id, metadata, chunks }) =>
        documentSummary(id, metadata, chunks)
      );
      return more && page.length
        ? { documents: page, cursor: encodeDocumentCursor(page[page.length - 1]!.id) }
        : { documents: page };
    })());
  }

  getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]> {
    return siftErrors(this.#index.getDocument(docId, options));
  }

  query(query: VectorQuery): Promise<SearchHit[]> {
    return siftErrors(this.#index.query(query));
  }
}

/** The library's errors as sift's, with the same statuses and messages as before the move. */
async function siftErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw siftError(error);
  }
}

function siftError(error: unknown): unknown {
  if (error instanceof SiftError) return error;
  if (error instanceof IndexInputError) {
    return new InvalidRequestError(error.message, { cause: error });
  }
  if (error instanceof DamagedFile) {
    const { file, offset, why } = error;
    return new IndexDamagedError({ file, offset, why, cause: error.cause ?? error });
  }
  if (error instanceof IndexUnreadableError) {
    // A store that speaks sift's family (a Durable Object's) keeps its own error.
    if (error.cause instanceof SiftError) return error.cause;
    return new SiftError("internal_error", 500, error.message, { cause: error.cause });
  }
  return error;
}
