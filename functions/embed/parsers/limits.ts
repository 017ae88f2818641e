/**
 * What one uploaded file may be: `FILE_MAX_BYTES`, `PDF_MAX_PAGES`,
 * `ARCHIVE_MAX_EXPANDED_BYTES` (every decompression, counted while it
 * inflates), and on Deno how long its parse may run (`FILE_PARSE_TIMEOUT_MS`)
 * and how much memory its child process may hold (`FILE_PARSE_MEMORY_MB`,
 * 512 when not given).
 */
export type FileLimits = {
  maxBytes: number;
  maxPdfPages: number;
  maxExpandedBytes: number;
  parseTimeoutMs: number;
  parseMemoryMb?: number;
};

/** `FILE_PARSE_MEMORY_MB`'s default. */
export const DEFAULT_PARSE_MEMORY_MB = 512;
