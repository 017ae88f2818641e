/**
 * The wire between the server and a parse child (`parse-child.ts`): each
 * message is a frame, a 4-byte little-endian length and that many bytes.
 * A job is two frames (its JSON head, then the file's bytes); a reply is one
 * JSON frame. Lengths are checked against a bound before anything is
 * buffered, so a child that goes wrong cannot make the server hold more than
 * `maxFrameBytes`.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One frame: the length, then the payload, written together. */
export function frameOf(payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(4 + payload.byteLength);
  new DataView(frame.buffer).setUint32(0, payload.byteLength, true);
  frame.set(payload, 4);
  return frame;
}

/** A value as a JSON frame. */
export function jsonFrame(value: unknown): Uint8Array {
  return frameOf(encoder.encode(JSON.stringify(value)));
}

/** A frame's payload read as JSON. */
export function jsonOf(payload: Uint8Array): unknown {
  return JSON.parse(decoder.decode(payload));
}

/** A frame longer than the reader allows. */
export class FrameTooLargeError extends Error {
  override name = "FrameTooLargeError";
}

/**
 * Frames from a byte stream, one at a time. Chunks are kept as they come and
 * joined once per frame, so reading is linear in the bytes. `next()` answers
 * undefined when the stream ends between frames; a stream that ends inside a
 * frame is an error.
 */
export class FrameReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #maxFrameBytes: number;

  constructor(stream: ReadableStream<Uint8Array>, maxFrameBytes: number) {
    this.#reader = stream.getReader();
    this.#maxFrameBytes = maxFrameBytes;
  }

  async next(): Promise<Uint8Array | undefined> {
    if (!await this.#fill(4)) return undefined;
    const head = this.#take(4);
    const length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true);
    if (length > this.#maxFrameBytes) {
      throw new FrameTooLargeError(`a frame of ${length} bytes, over ${this.#maxFrameBytes}`);
    }
    if (!await this.#fill(length)) throw new Error("the stream ended inside a frame");
    return this.#take(length);
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  /** Reads until `bytes` are buffered; false when the stream ended with fewer (none: cleanly). */
  async #fill(bytes: number): Promise<boolean> {
    while (this.#buffered < bytes) {
      const { done, value } = await this.#reader.read();
      if (done) {
        if (this.#buffered === 0) return false;
        throw new Error("the stream ended inside a frame");
      }
      this.#chunks.push(value);
      this.#buffered += value.byteLength;
    }
    return true;
  }

  #take(bytes: number): Uint8Array {
    const out = new Uint8Array(bytes);
    let filled = 0;
    while (filled < bytes) {
      const chunk = this.#chunks[0]!;
      const used = Math.min(chunk.byteLength, bytes - filled);
      out.set(chunk.subarray(0, used), filled);
      filled += used;
      if (used === chunk.byteLength) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(used);
    }
    this.#buffered -= bytes;
    return out;
  }
}
