export type ServerSentEvent = { event: string; data: unknown };

function parseBlock(block: string): ServerSentEvent | undefined {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join("\n");
  try {
    return { event, data: JSON.parse(text) };
  } catch {
    return { event, data: text };
  }
}

/**
 * Reads a `text/event-stream` body event by event as bytes arrive: blocks
 * split on blank lines (LF or CRLF), comments skipped, `data:` lines joined
 * and parsed as JSON when they are JSON. Bytes are decoded as a stream, so an
 * event or a character split across reads comes out whole.
 *
 * @example
 * for await (const { event, data } of readServerSentEvents(response.body!)) console.log(event);
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? "";
    for (const block of blocks) {
      const parsed = parseBlock(block);
      if (parsed) yield parsed;
    }
  }
  buffer += decoder.decode();
  const last = buffer.trim() === "" ? undefined : parseBlock(buffer);
  if (last) yield last;
}
