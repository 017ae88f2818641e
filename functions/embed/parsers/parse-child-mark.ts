/** The line a parse child writes to stderr when its resident memory passes its ceiling. */
export const OVER_MEMORY_MARK = "sift-parse-child: resident memory over its ceiling";
