/**
 * Reads a text file line by line without holding it whole, refusing a line
 * longer than `maxLineBytes` (a corrupt or binary file) with its file and
 * line number instead of growing without bound.
 */
export async function* readLines(
  path: string,
  maxLineBytes: number,
): AsyncGenerator<{ line: string; number: number }> {
  const file = await Deno.open(path).catch((error) => {
    throw new Error(`${path}: cannot open (${(error as Error).message})`);
  });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let number = 0;
  const tooLong = () =>
    new Error(`${path}:${number + 1}: a line longer than ${maxLineBytes} bytes; is this JSONL?`);
  try {
    for await (const bytes of file.readable) {
      let text;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw new Error(`${path}:${number + 1}: not UTF-8 text`);
      }
      pending += text;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        if (newline > maxLineBytes) throw tooLong();
        number++;
        yield { line: pending.slice(0, newline).replace(/\r$/, ""), number };
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
      // Characters are at most 3 UTF-16 units per 1-4 bytes: chars ≥ bytes / 4.
      if (pending.length > maxLineBytes) throw tooLong();
    }
  } finally {
    // The readable closes the file when it ends; an early return or throw must close it too.
    try {
      file.close();
    } catch { /* already closed by the stream */ }
  }
  if (pending.length > maxLineBytes) throw tooLong();
  if (pending.length > 0) yield { line: pending.replace(/\r$/, ""), number: number + 1 };
}
