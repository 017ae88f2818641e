/**
 * A TCP proxy to a database that, once armed, drops every connection the
 * moment a client sends the given bytes (a statement's text, or a value it
 * binds: a prepared statement is sent by name only): the database going
 * away with that statement in flight, on every machine, however fast.
 * Loopback only.
 *
 * @example
 * await using proxy = cuttingProxy(db.port, "a word only one document holds");
 * proxy.arm();
 * await proxy.cut; // a client sent it, and every connection is gone
 */
export type CuttingProxy = {
  port: number;
  /** From now on, the marker in a client's bytes drops every connection. */
  arm: () => void;
  /** Resolves once the connections were dropped. */
  cut: Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

export function cuttingProxy(targetPort: number, marker: string): CuttingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const needle = new TextEncoder().encode(marker);
  let armed = false;
  let cutNow!: () => void;
  const cut = new Promise<void>((resolve) => cutNow = resolve);
  const dropAll = () => {
    for (const conn of open) {
      try {
        conn.close();
      } catch { /* closed already */ }
    }
    open.clear();
  };
  const pipe = async (from: Deno.Conn, to: Deno.Conn, watch: boolean) => {
    const buffer = new Uint8Array(64 * 1024);
    // The end of the previous read: a marker may straddle two.
    let tail = new Uint8Array(0);
    try {
      while (true) {
        const read = await from.read(buffer);
        if (read === null) break;
        const bytes = buffer.subarray(0, read);
        const seen = new Uint8Array(tail.length + read);
        seen.set(tail);
        seen.set(bytes, tail.length);
        tail = seen.slice(Math.max(0, seen.length - needle.length + 1));
        if (watch && armed && contains(seen, needle)) {
          armed = false;
          dropAll();
          cutNow();
          return;
        }
        for (let written = 0; written < read;) written += await to.write(bytes.subarray(written));
      }
    } catch { /* either side went away */ }
    for (const conn of [from, to]) {
      open.delete(conn);
      try {
        conn.close();
      } catch { /* closed already */ }
    }
  };
  const accepting = (async () => {
    for await (const client of listener) {
      let server: Deno.Conn;
      try {
        server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
      } catch {
        client.close(); // the database is down: refused, as it would be
        continue;
      }
      open.add(client);
      open.add(server);
      pipe(client, server, true);
      pipe(server, client, false);
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    arm: () => armed = true,
    cut,
    [Symbol.asyncDispose]: async () => {
      try {
        listener.close();
      } catch { /* closed already */ }
      dropAll();
      await accepting;
    },
  };
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
