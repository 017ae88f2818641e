/**
 * A TCP proxy to a database that misbehaves on cue, loopback only:
 * - `stallOn(marker)`: a connection whose client sends the marker (a value a
 *   statement binds) goes silent both ways from then on, as a connection to
 *   a hung server or across a dead network path does; other connections pass.
 * - `refuseStartupParameter(name)`: a connection whose start-up message
 *   carries that parameter is refused the way PgBouncer refuses one it does
 *   not know (FATAL 08P01 `unsupported startup parameter: name`).
 *
 * @example
 * await using proxy = faultyProxy(db.port, { stallOn: "Kittiwake-7319" });
 * await proxy.stalledClosed; // the client gave up on the stalled connection
 */
export type FaultyProxy = {
  port: number;
  /** Connections refused for their start-up parameter so far. */
  refused: () => number;
  /** Resolves once the client closed a stalled connection. */
  stalledClosed: Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

export function faultyProxy(
  targetPort: number,
  faults: { stallOn?: string; refuseStartupParameter?: string },
): FaultyProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const encode = (text: string) => new TextEncoder().encode(text);
  const marker = faults.stallOn === undefined ? undefined : encode(faults.stallOn);
  const parameter = faults.refuseStartupParameter === undefined
    ? undefined
    : encode(`${faults.refuseStartupParameter}\0`);
  let refused = 0;
  let closedNow!: () => void;
  const stalledClosed = new Promise<void>((resolve) => closedNow = resolve);
  const close = (conn: Deno.Conn) => {
    open.delete(conn);
    try {
      conn.close();
    } catch { /* closed already */ }
  };

  const serve = async (client: Deno.Conn) => {
    open.add(client);
    const buffer = new Uint8Array(64 * 1024);
    const first = await client.read(buffer).catch(() => null);
    if (first === null) return close(client);
    const startup = buffer.slice(0, first);
    if (parameter && contains(startup, parameter)) {
      refused++;
      await client.write(
        fatal("08P01", `unsupported startup parameter: ${faults.refuseStartupParameter}`),
      )
        .catch(() => {});
      return close(client);
    }
    let server: Deno.Conn;
    try {
      server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
    } catch {
      return close(client);
    }
    open.add(server);
    await server.write(startup);
    let stalled = false;
    // Server to client: stops passing once the connection stalls.
    (async () => {
      const chunk = new Uint8Array(64 * 1024);
      try {
        for (;;) {
          const read = await server.read(chunk);
          if (read === null) break;
          if (stalled) continue;
          for (let at = 0; at < read;) at += await client.write(chunk.subarray(at, read));
        }
      } catch { /* either side went away */ }
      if (!stalled) close(client);
    })();
    // Client to server: a chunk holding the marker is swallowed, and so is all after it.
    try {
      for (;;) {
        const read = await client.read(buffer);
        if (read === null) break;
        if (!stalled && marker && contains(buffer.subarray(0, read), marker)) stalled = true;
        if (stalled) continue;
        for (let at = 0; at < read;) at += await server.write(buffer.subarray(at, read));
      }
    } catch { /* either side went away */ }
    if (stalled) closedNow();
    close(client);
    close(server);
  };

  const accepting = (async () => {
    for await (const client of listener) serve(client).catch(() => close(client));
  })().catch(() => {});
  return {
    port: listener.addr.port,
    refused: () => refused,
    stalledClosed,
    [Symbol.asyncDispose]: async () => {
      try {
        listener.close();
      } catch { /* closed already */ }
      for (const conn of [...open]) close(conn);
      await accepting;
    },
  };
}

/** A Postgres ErrorResponse of severity FATAL. */
function fatal(code: string, message: string): Uint8Array {
  const fields = `SFATAL\0VFATAL\0C${code}\0M${message}\0\0`;
  const body = new TextEncoder().encode(fields);
  const out = new Uint8Array(1 + 4 + body.length);
  out[0] = "E".charCodeAt(0);
  new DataView(out.buffer).setUint32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
