/**
 * Server-sent events read from text as it arrives (what `EventSource` does,
 * which the page cannot use: it would need the API key in the URL). Plain
 * string work, no DOM: tests/unit/console_script_test.ts runs it.
 */

/** Each event of a server-sent stream, its name and its data, once its block is complete. */
export class EventReader {
  #buffer = "";

  /** Takes the next piece of the stream; returns the events it completed. */
  push(text: string): { name: string; data: string }[] {
    this.#buffer += text.replace(/\r\n/g, "\n");
    const events = [];
    for (let cut = this.#buffer.indexOf("\n\n"); cut >= 0; cut = this.#buffer.indexOf("\n\n")) {
      const block = this.#buffer.slice(0, cut);
      this.#buffer = this.#buffer.slice(cut + 2);
      let name = "message";
      const lines = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) lines.push(line.slice(5).replace(/^ /, ""));
      }
      if (lines.length) events.push({ name, data: lines.join("\n") });
    }
    return events;
  }
}
