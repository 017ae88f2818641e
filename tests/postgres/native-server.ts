/**
 * A throwaway native Postgres with pgvector for tests, as a team runs it: a
 * cluster made by `initdb` in a temporary directory, served by `postgres` on
 * a free loopback port (its socket in that directory too), as the `postgres`
 * OS user when the tests run as root (Postgres refuses to run as root). A
 * superuser makes a role `sift` that is not one, its database `sift` owned
 * by it, and `CREATE EXTENSION vector` in it: the path a managed service
 * gives an app's role. `url` connects as `sift`.
 *
 * The binaries are Debian's `postgresql-15` (or `PG_BIN`), with pgvector
 * built into them (`.ci/run` does both).
 *
 * @example
 * await using db = await startNativeServer();
 * const index = new PostgresIndex({ url: db.url });
 */
import postgres, { type Sql } from "postgres";
import { captureOutput, freePort } from "../e2e/service.ts";

export type NativeServer = {
  /** As `sift`: not a superuser, owner of its database. */
  url: string;
  /** As the superuser `postgres`, to `sift` or another database. */
  superuserUrl: (database?: string) => string;
  port: number;
  output: () => string;
  /** Another database owned by `sift`, with pgvector made by the superuser unless told not to. */
  createDatabase: (name: string, options?: { pgvector?: boolean }) => Promise<string>;
  /** Fast shutdown (SIGINT); resolves once the server is gone. */
  stop: () => Promise<void>;
  /** Immediate shutdown (SIGQUIT): no checkpoint, connections cut, as when the host dies. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and cluster (after a kill, with crash recovery). */
  restart: () => Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

/**
 * The directory of `initdb`, `postgres` and `pg_config` of a Postgres with
 * pgvector installed (`PG_BIN`, else Debian's `/usr/lib/postgresql/<version>/bin`,
 * newest first), or why there is none.
 */
export function findNativePostgres(): { bin: string } | { missing: string } {
  const given = Deno.env.get("PG_BIN");
  const candidates = given ? [given] : debianBinDirs();
  const servers = candidates.filter((dir) => isFile(`${dir}/initdb`) && isFile(`${dir}/postgres`));
  if (!servers.length) {
    return { missing: "no initdb (apt-get install postgresql-15, or set PG_BIN)" };
  }
  const bin = servers.find((dir) => isFile(`${sharedDir(dir)}/extension/vector.control`));
  if (!bin) {
    return { missing: `no pgvector in ${servers.join(", ")} (see ../shared/vendor/README.md)` };
  }
  if (Deno.uid() === 0 && !isFile("/usr/sbin/runuser")) return { missing: "no runuser" };
  return { bin };
}

function debianBinDirs(): string[] {
  try {
    return [...Deno.readDirSync("/usr/lib/postgresql")].map((entry) => entry.name)
      .sort((a, b) => Number(b) - Number(a)).map((version) => `/usr/lib/postgresql/${version}/bin`);
  } catch {
    return [];
  }
}

/** Where this server's extensions live (`pg_config --sharedir`), or "" without pg_config. */
function sharedDir(bin: string): string {
  if (!isFile(`${bin}/pg_config`)) return "";
  const { stdout } = new Deno.Command(`${bin}/pg_config`, { args: ["--sharedir"] }).outputSync();
  return new TextDecoder().decode(stdout).trim();
}

export async function startNativeServer(
  options: { pgvector?: boolean } = {},
): Promise<NativeServer> {
  const found = findNativePostgres();
  if ("missing" in found) throw new Error(`native Postgres: ${found.missing}`);
  const asRoot = Deno.uid() === 0;
  // The postgres user must reach it: under /tmp, not a root-only TMPDIR.
  const dir = await Deno.makeTempDir({
    prefix: "sift-pg-native-",
    ...(asRoot ? { dir: "/tmp" } : {}),
  });
  const as = (command: string, args: string[]): [string, string[]] =>
    asRoot ? ["/usr/sbin/runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const password = crypto.randomUUID();
  try {
    if (asRoot) await run("chown", ["postgres:", dir]);
    await Deno.writeTextFile(`${dir}/pwfile`, password, { mode: 0o600 });
    if (asRoot) await run("chown", ["postgres:", `${dir}/pwfile`]);
    await run(...as(`${found.bin}/initdb`, [
      `--pgdata=${dir}/data`,
      "--username=postgres",
      `--pwfile=${dir}/pwfile`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
    ]));
    await Deno.remove(`${dir}/pwfile`);
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }

  let port = 0;
  let child: Deno.ChildProcess | undefined;
  let captured: ReturnType<typeof captureOutput> | undefined;
  let earlier = "";
  const spawn = async () => {
    const [command, args] = as(`${found.bin}/postgres`, [`--config-file=${dir}/postgresql.conf`]);
    child = new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    captured = captureOutput(child);
    const deadline = Date.now() + 60_000;
    while (!captured.output().includes("ready to accept connections")) {
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 50)),
      ]);
      if (exited || Date.now() > deadline) {
        await end("SIGKILL");
        throw new Error(`postgres did not start:\n${earlier}`);
      }
    }
  };
  /** To the postmaster itself: runuser, the child as root, would not pass SIGINT or SIGQUIT on. */
  const signal = async (process: Deno.ChildProcess, name: Deno.Signal) => {
    try {
      const pid = asRoot
        ? Number((await Deno.readTextFile(`${dir}/data/postmaster.pid`)).split("\n")[0])
        : process.pid;
      Deno.kill(pid, name);
    } catch { /* gone, or never started */ }
  };
  const end = async (how: Deno.Signal) => {
    if (!child) return;
    await signal(child, how);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gone = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 30_000)),
    ]);
    clearTimeout(timer);
    if (!gone) {
      await signal(child, "SIGKILL");
      await child.status;
    }
    await captured?.drained;
    earlier += captured?.output() ?? "";
    child = undefined;
    captured = undefined;
  };
  // freePort() closes its listener before postgres binds; under --parallel another test may take
  // the port first, so a lost port is tried again with another.
  for (let attempt = 1;; attempt++) {
    port = freePort();
    await Deno.writeTextFile(`${dir}/postgresql.conf`, settings(dir, port));
    try {
      await spawn();
      break;
    } catch (error) {
      if (attempt >= 3 || !earlier.includes("could not bind")) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
        throw error;
      }
    }
  }

  const superuserUrl = (database = "sift") =>
    `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  const createDatabase = async (name: string, made: { pgvector?: boolean } = {}) => {
    await admin(
      superuserUrl("postgres"),
      (sql) => sql.unsafe(`CREATE DATABASE "${name}" OWNER sift`),
    );
    if (made.pgvector !== false) {
      await admin(superuserUrl(name), (sql) => sql`CREATE EXTENSION vector`);
    }
    return `postgres://sift:${password}@127.0.0.1:${port}/${name}`;
  };
  const stop = () => end("SIGINT");
  try {
    // NOSUPERUSER, NOCREATEDB, NOCREATEROLE: an app's role on a managed service.
    await admin(
      superuserUrl("postgres"),
      (sql) => sql.unsafe(`CREATE ROLE sift LOGIN PASSWORD '${password}'`),
    );
    const url = await createDatabase("sift", options);
    return {
      url,
      superuserUrl,
      port,
      output: () => earlier + (captured?.output() ?? ""),
      createDatabase,
      stop,
      kill: () => end("SIGQUIT"),
      restart: spawn,
      [Symbol.asyncDispose]: async () => {
        await stop();
        await Deno.remove(dir, { recursive: true });
      },
    };
  } catch (error) {
    await stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
}

/**
 * Quick to start and to write: a test's cluster is thrown away, so it need
 * not survive the machine (`fsync = off`). It must survive its own server
 * being killed (tests kill it and count on what was committed):
 * `synchronous_commit` stays on, or a commit acknowledged a moment before
 * the kill is lost with the WAL not yet handed to the OS (a search after the
 * restart found nothing of a 201'd document, on a loaded machine).
 */
function settings(dir: string, port: number): string {
  return [
    `data_directory = '${dir}/data'`,
    `hba_file = '${dir}/data/pg_hba.conf'`,
    `ident_file = '${dir}/data/pg_ident.conf'`,
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    "max_connections = 100",
    "fsync = off",
    "full_page_writes = off",
    "lc_messages = 'C'",
    "",
  ].join("\n");
}

async function admin(url: string, work: (sql: Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function run(command: string, args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command(command, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`${command} failed: ${new TextDecoder().decode(stderr)}`);
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
