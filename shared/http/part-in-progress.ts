import { MultipartParser, type MultipartPart } from "@remix-run/multipart-parser";

const encoder = new TextEncoder();

/** The last `length` bytes of `earlier` followed by `chunk`, copied. */
function lastBytes(earlier: Uint8Array, chunk: Uint8Array, length: number): Uint8Array {
  if (chunk.byteLength >= length) return chunk.slice(chunk.byteLength - length);
  const kept = earlier.subarray(Math.max(0, earlier.byteLength - (length - chunk.byteLength)));
  const joined = new Uint8Array(kept.byteLength + chunk.byteLength);
  joined.set(kept);
  joined.set(chunk, kept.byteLength);
  return joined;
}

/**
 * The headers of the part a `MultipartParser` is reading, for when it refuses
 * that part mid-body (`MaxFileSizeExceededError`): the parser hands a part
 * over, headers and all, only once the part has ended, and the refusal must
 * name the file. So this keeps the few bytes that hold them, from the chunk in
 * which the last part ended (the delimiter that ended it opens the next one)
 * to a header's length past it, and only on a refusal parses them again, once.
 *
 * @example
 * const inProgress = new PartInProgress(boundary, 16 * 1024);
 * inProgress.add(chunk);
 * for (const part of parser.write(chunk)) inProgress.partEnded();
 * // on MaxFileSizeExceededError:
 * inProgress.part()?.headers["content-disposition"];
 */
export class PartInProgress {
  readonly #boundary: string;
  readonly #maxHeaderBytes: number;
  readonly #delimiterBytes: number;
  /** The stream's last delimiter-length bytes, before and after the chunk being written. */
  #tailBefore: Uint8Array = new Uint8Array();
  #tail: Uint8Array = new Uint8Array();
  #chunk: Uint8Array | undefined;
  /** The bytes just before the window: where the delimiter ending its first chunk may start. */
  #before: Uint8Array = new Uint8Array();
  #window: Uint8Array[] = [];
  #windowBytes = 0;
  /** Parts that ended in the window's first chunk (0: the window starts the stream). */
  #ended = 0;

  constructor(boundary: string, maxHeaderBytes: number) {
    this.#boundary = boundary;
    this.#maxHeaderBytes = maxHeaderBytes;
    this.#delimiterBytes = `\r\n--${boundary}`.length;
  }

  /** Call with each chunk before the parser writes it. */
  add(chunk: Uint8Array): void {
    this.#tailBefore = this.#tail;
    this.#tail = lastBytes(this.#tail, chunk, this.#delimiterBytes);
    this.#chunk = chunk;
    // A part's headers end within a delimiter, CRLF, the headers and CRLFCRLF of the window's start.
    if (this.#window.length > 0 && this.#windowBytes >= this.#reach) return;
    if (this.#window.length > 0) this.#windowBytes += chunk.byteLength;
    this.#window.push(chunk);
  }

  get #reach(): number {
    return this.#delimiterBytes + this.#maxHeaderBytes + 8;
  }

  /** Call for each part the parser yields while it writes the chunk last added. */
  partEnded(): void {
    if (this.#window[0] !== this.#chunk || this.#ended === 0) {
      this.#before = this.#tailBefore;
      this.#window = this.#chunk ? [this.#chunk] : [];
      this.#windowBytes = 0;
      this.#ended = 0;
    }
    this.#ended++;
  }

  /**
   * The part being read, its content cut short, or undefined when its headers
   * cannot be read again. A fresh parser reads the window: behind a first part
   * that swallows everything up to the first delimiter, the parts that ended in
   * the window, then the one in progress, closed here.
   */
  part(): MultipartPart | undefined {
    const boundary = this.#boundary;
    // The "x" keeps a window that starts with `--boundary` from reading as a delimiter.
    const opening = this.#ended === 0
      ? []
      : [encoder.encode(`--${boundary}\r\n\r\n\r\nx`), this.#before];
    const parser = new MultipartParser(boundary, {
      maxHeaderSize: this.#maxHeaderBytes,
      maxFileSize: Infinity,
      maxParts: Infinity,
      maxTotalSize: Infinity,
    });
    let index = 0;
    try {
      for (const chunk of [...opening, ...this.#window, encoder.encode(`\r\n--${boundary}--`)]) {
        for (const part of parser.write(chunk)) {
          if (index++ === this.#ended) return part;
        }
      }
    } catch {
      // Bytes the parser at work never reached (it stopped at the refusal) may not parse.
    }
    return undefined;
  }
}
