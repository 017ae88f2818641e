/** What one uploaded file may be: `FILE_MAX_BYTES`, `PDF_MAX_PAGES`, `ARCHIVE_MAX_EXPANDED_BYTES`. */
export type FileLimits = { maxBytes: number; maxPdfPages: number; maxExpandedBytes: number };
