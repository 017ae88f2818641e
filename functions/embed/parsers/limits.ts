/**
 * What one uploaded file may be: `FILE_MAX_BYTES`, `PDF_MAX_PAGES`,
 * `ARCHIVE_MAX_EXPANDED_BYTES`, and how long its parse may run off the
 * request loop (`FILE_PARSE_TIMEOUT_MS`, Deno).
 */
export type FileLimits = {
  maxBytes: number;
  maxPdfPages: number;
  maxExpandedBytes: number;
  parseTimeoutMs: number;
};
