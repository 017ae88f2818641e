/**
 * What crosses between the server and whatever parses off its loop (a child
 * process on Deno, a worker thread where processes cannot be started): one
 * job, and its reply. A refusal crosses as its parts and is thrown again on
 * the server's side, so a caller sees the same error wherever the parse ran.
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

/** Runs one job here and says how it went, never throwing. */
export async function replyTo(job: ParseJob): Promise<ParseReply> {
  try {
    return { parsed: await parseKind(job.kind, job.bytes, job.name, job.limits) };
  } catch (error) {
    if (error instanceof DocumentRefusedError) {
      const why = error.message.slice(error.file.length + 2);
      return { refusal: { file: error.file, reason: error.reason, why } };
    }
    return { failure: reasonOf(error) };
  }
}

/** The parsed file a reply holds, or the refusal or failure it holds, thrown. */
export function parsedFrom(reply: ParseReply, name: string): ParsedFile {
  if ("parsed" in reply) return reply.parsed;
  if ("refusal" in reply) {
    const { file, reason, why } = reply.refusal;
    throw new DocumentRefusedError(file, reason, why);
  }
  throw new Error(`the parser failed on ${name}: ${reply.failure}`);
}
