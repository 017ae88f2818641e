/**
 * The parse worker (Deno): a thread that reads one file at a time for
 * `parse-pool.ts`, so a long parse never holds the request loop. It is sent
 * `ParseJob`s and answers each with a `ParseReply`; a refusal crosses as its
 * parts and is thrown again on the other side.
 */
import { DocumentRefusedError, type RefusalReason } from "../../../shared/documents/refusal.ts";
import type { FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { type ParsedFile, parseKind } from "./parse-kind.ts";
import { reasonOf } from "./reason.ts";

export type ParseJob = { kind: FileKind; bytes: Uint8Array; name: string; limits: FileLimits };

export type ParseReply =
  | { parsed: ParsedFile }
  | { refusal: { file: string; reason: RefusalReason; why: string } }
  | { failure: string };

// A worker's global scope, typed without pulling the worker lib into the project's check.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ParseJob>) => void) | null;
  postMessage: (reply: ParseReply) => void;
};

scope.onmessage = async ({ data: job }) => {
  try {
    scope.postMessage({ parsed: await parseKind(job.kind, job.bytes, job.name, job.limits) });
  } catch (error) {
    if (error instanceof DocumentRefusedError) {
      const why = error.message.slice(error.file.length + 2);
      scope.postMessage({ refusal: { file: error.file, reason: error.reason, why } });
    } else scope.postMessage({ failure: reasonOf(error) });
  }
};
