import { type ErrorType, SiftError } from "../errors.ts";

/** Why a file is not taken, each with the status a caller sees. */
const REASONS = {
  empty: ["invalid_request", 400],
  not_text: ["unsupported_media_type", 415],
  encrypted: ["invalid_request", 400],
  scanned: ["invalid_request", 400],
  unreadable: ["invalid_request", 400],
  too_large: ["payload_too_large", 413],
} as const satisfies Record<string, readonly [ErrorType, number]>;

export type RefusalReason = keyof typeof REASONS;

/**
 * A file that is not a document sift can read: an image, a scan, an
 * encrypted or oversized file. The message starts with the file's name, so a
 * folder ingest can print it as the one line that says why it was skipped.
 *
 * @example
 * throw new DocumentRefusedError("photo.txt", "not_text", "is a PNG image, not text");
 */
export class DocumentRefusedError extends SiftError {
  override name = "DocumentRefusedError";
  readonly file: string;
  readonly reason: RefusalReason;

  constructor(file: string, reason: RefusalReason, why: string, options: { cause?: unknown } = {}) {
    const [type, status] = REASONS[reason];
    super(type, status, `${file}: ${why}`, options);
    this.file = file;
    this.reason = reason;
  }
}
