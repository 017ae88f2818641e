import type { IndexRecord } from "./record.ts";
import type { NamespaceSnapshot, NamespaceView } from "./snapshot.ts";

/**
 * A log's last record cut at load (torn by a crash, or failing its checksum):
 * where it began, how many records and bytes went, and when (ISO 8601).
 */
export type RecoveredTail = {
  file: string;
  offset: number;
  dropped_records: number;
  dropped_bytes: number;
  at: string;
};

/**
 * Where the embedded index keeps its changes: a checkpoint of the whole
 * index plus a log of the records appended since. Deno's entry gives files
 * (`FileIndexLog`); workerd has no file system, and there the index lives in
 * the Durable Object's SQLite storage instead.
 */
export interface IndexLog {
  readonly location: string;
  /** The last checkpoint, if any, and every record after it, oldest first (a torn tail is cut). */
  load(): Promise<
    {
      checkpoint?: Map<string, NamespaceSnapshot>;
      records: IndexRecord[];
      /**
       * Checksums left to check after the load (the dense rows' bulk, whose
       * damage would only shift scores): rejects with the damage, and from
       * then on the index fails every call with it.
       */
      verified?: Promise<void>;
      /**
       * Sections the load left to read after the index serves (the int8
       * rows, the term postings): resolves once they are in; until then
       * searches read what they need by position, and writes wait. Rejects
       * with damage found in them (and so does `verified`).
       */
      background?: Promise<void>;
    }
  >;
  /** Resolves once the record is durable: a crash after that cannot lose it. */
  append(record: IndexRecord): Promise<void>;
  /** The same for a record already encoded (`encodeRecord`'s bytes: a bulk build's piece). */
  appendEncoded?(frame: Uint8Array): Promise<void>;
  /** Bytes appended since the last checkpoint, and the size of that checkpoint. */
  readonly tailBytes: number;
  readonly checkpointBytes: number;
  /**
   * Makes `namespaces` (the state after every record appended so far) the
   * new checkpoint. Appends made while it is written go after it: the call
   * switches them to the next log before it returns its promise. Atomic: a
   * crash leaves the old checkpoint and every record since, or the new one
   * and every record since. `signal` gives it up (a stop that checkpoints
   * everything instead): it then rejects, and leaves no file of its own.
   * Rejected or given up, the records it would have covered count in
   * `tailBytes` again.
   */
  checkpoint(
    namespaces: Map<string, NamespaceView>,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  /**
   * The records loads cut from the log's end that nobody has acknowledged
   * yet, oldest first. Kept where the log is, across restarts and
   * checkpoints: the cut could have been an acknowledged write (a flipped
   * byte looks like a torn one), and a checkpoint runs at every clean stop,
   * so it would end the notice before anyone had seen it.
   */
  readonly recovered?: readonly RecoveredTail[] | undefined;
  /** Forgets `recovered` (an operator has seen it), durably; resolves to what it held. */
  acknowledgeRecovered?(): Promise<readonly RecoveredTail[]>;
}
