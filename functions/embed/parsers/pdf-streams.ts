/**
 * A PDF's compressed stream bodies, found without parsing the file: a pass
 * over its bytes with the checks pdf.js makes when it reads a stream.
 */

/** PDF whitespace before `endstream`, looked over after a stream's `/Length`. */
const WHITESPACE_LOOKED_OVER = 256;

const isWhitespace = (code: number) =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0c || code === 0;

/** What ends the `stream` keyword (PDF whitespace and delimiters), or the file's end. */
const KEYWORD_END = /^(?:[\0\t\n\f\r %()<>[\]{}/]|$)/;

/**
 * True when a zlib header starts at `at`, by the checks pdf.js makes before it
 * inflates a `/FlateDecode` stream (method 8, check bits, no preset
 * dictionary): what fails them pdf.js never inflates either.
 */
export function zlibHeaderAt(bytes: Uint8Array, at: number): boolean {
  const method = bytes[at];
  const flags = bytes[at + 1];
  if (method === undefined || flags === undefined) return false;
  return (method & 0x0f) === 8 && ((method << 8) + flags) % 31 === 0 && (flags & 0x20) === 0;
}

/** A stream's data and whether its dictionary calls it an image. */
export type StreamData = { start: number; end: number; image: boolean };

/**
 * Every stream body in a PDF whose data starts with a zlib header, found in
 * one pass over its bytes (as a string of one character each): from each
 * `stream` keyword's line end to its `/Length` when `endstream` follows there
 * (direct, or an `N 0 obj 1234 endobj` of its own), else to the next
 * `endstream`, as pdf.js reads them. Going by the data's header, not the
 * dictionary's `/Filter`, no way of writing a filter hides a stream. Each
 * search resumes where the last one stopped, so the pass is linear in the
 * file however its keywords are laid out.
 */
export function* flateStreams(bytes: Uint8Array): Generator<StreamData> {
  const text = byteString(bytes);
  const cursor = forwardSearch(text);
  let integers: Map<string, number> | undefined;
  let floor = 0;
  for (let at = text.indexOf("stream"); at !== -1; at = text.indexOf("stream", at + 6)) {
    if (text.startsWith("end", at - 3) || !KEYWORD_END.test(text.slice(at + 6, at + 7))) continue;
    const lineEnd = cursor.lineEnd(at + 6);
    if (lineEnd === -1) return;
    const start = lineEnd + (text.startsWith("\r\n", lineEnd) ? 2 : 1);
    const dictionaryFrom = floor;
    floor = at + 6;
    if (!zlibHeaderAt(bytes, start)) continue;
    const region = text.slice(dictionaryFrom, at);
    const previous = region.lastIndexOf("endstream");
    const dictionary = previous === -1 ? region : region.slice(previous + "endstream".length);
    const length = lengthOf(dictionary, () => integers ??= integerObjects(text));
    let end = -1;
    if (length !== undefined && start + length <= text.length) {
      let next = start + length;
      const limit = next + WHITESPACE_LOOKED_OVER;
      while (next < limit && isWhitespace(text.charCodeAt(next))) next++;
      if (text.startsWith("endstream", next)) end = start + length;
    }
    if (end === -1) end = cursor.next("endstream", start);
    // No `endstream` anywhere after: pdf.js refuses the object, and so does its count.
    if (end === -1) continue;
    yield { start, end, image: /\/Subtype[\0\t\n\f\r ]*\/Image(?![A-Za-z0-9])/.test(dictionary) };
  }
}

/** The last `/Length` in a stream's dictionary: a direct integer, or an indirect one resolved. */
function lengthOf(dictionary: string, integers: () => Map<string, number>): number | undefined {
  let last: RegExpExecArray | undefined;
  for (
    const match of dictionary.matchAll(
      /\/Length[\0\t\n\f\r ]+(\d{1,10})(?:[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+R)?/g,
    )
  ) {
    last = match;
  }
  if (!last) return undefined;
  return last[2] === undefined ? Number(last[1]) : integers().get(`${last[1]} ${last[2]}`);
}

/** Every `N G obj 1234 endobj` in the file: where writers put a stream's indirect `/Length`. */
function integerObjects(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const pattern = /(?<=[\0\t\n\f\r ])obj[\0\t\n\f\r ]+(\d{1,10})[\0\t\n\f\r ]+endobj/g;
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(Math.max(0, match.index - 24), match.index);
    const id = /(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+$/.exec(before);
    if (id) found.set(`${id[1]} ${id[2]}`, Number(match[1]));
  }
  return found;
}

/**
 * Searches that only move forward: each remembers what it last found and
 * searches again only from past it, so a pass over the file costs its length.
 */
function forwardSearch(text: string) {
  const last = new Map<string, number>();
  const next = (needle: string, from: number): number => {
    const found = last.get(needle);
    if (found !== undefined && (found === -1 || found >= from)) return found;
    const at = text.indexOf(needle, from);
    last.set(needle, at);
    return at;
  };
  return {
    next,
    lineEnd(from: number): number {
      const feed = next("\n", from);
      const ret = next("\r", from);
      return feed === -1 ? ret : ret === -1 ? feed : Math.min(feed, ret);
    },
  };
}

/**
 * The bytes as a string of one character each (the keywords in ASCII as they
 * are), positions kept: native `latin1` (windows-1252) decoding where the
 * runtime has it, else 8 KiB at a time.
 */
function byteString(bytes: Uint8Array): string {
  try {
    return new TextDecoder("latin1").decode(bytes);
  } catch {
    const parts: string[] = [];
    for (let at = 0; at < bytes.byteLength; at += 8192) {
      parts.push(String.fromCharCode(...bytes.subarray(at, at + 8192)));
    }
    return parts.join("");
  }
}
