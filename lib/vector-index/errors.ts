/**
 * The index's own errors, free of any HTTP meaning: an embedding service maps
 * them onto its own (sift's adapter turns them into a 400 and an
 * `index_damaged` 503).
 */

/** The caller's input cannot be indexed or searched as given (a vector of the wrong width, a bad cursor). */
export class IndexInputError extends Error {
  override name = "IndexInputError";
}

/**
 * An index file fails its checksum or its framing: which file, at which byte,
 * and why. Nothing was changed; the file is never overwritten.
 *
 * @example
 * new IndexDamagedError({ file: ".data/index.log", offset: 703504, why: "a record fails its checksum" });
 */
export class IndexDamagedError extends Error {
  override name = "IndexDamagedError";
  readonly file: string;
  readonly offset: number;
  readonly why: string;
  constructor(options: { file: string; offset: number; why: string; cause?: unknown }) {
    const { file, offset, why } = options;
    super(
      `The index file ${file} is damaged at byte ${offset} (${why}); nothing was changed`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.file = file;
    this.offset = offset;
    this.why = why;
  }
}

/** The store could not be read at all (not damage a checksum found): the index serves nothing. */
export class IndexUnreadableError extends Error {
  override name = "IndexUnreadableError";
  constructor(location: string | undefined, options: { cause?: unknown } = {}) {
    super(`The index log at ${location} is unreadable`, options);
  }
}
