/**
 * One owner per data directory. Two processes that each replay, append to and
 * checkpoint the same index files lose acknowledged writes (the second to stop
 * writes its checkpoint over the first's), so a process takes an exclusive
 * lock on `<dir>/owner.lock` before it opens anything there. The lock is the
 * kernel's (flock): it goes with the process, on exit and after `kill -9`
 * alike, so there is never a stale lock to clean up. The file holds the
 * owner's pid, for the message a second process prints.
 */
import { ConfigError } from "../../shared/errors.ts";

export const LOCK_FILE = "owner.lock";

/** The data directory is held by another process: a deployment mistake, told at start. */
export class DataDirBusyError extends ConfigError {
  override name = "DataDirBusyError";
  readonly dataDir: string;
  readonly ownerPid: number | undefined;
  constructor(dataDir: string, ownerPid: number | undefined) {
    super(
      `sift cannot start: the data directory ${dataDir} is in use by another sift process` +
        (ownerPid ? ` (pid ${ownerPid})` : "") +
        ". Stop it, or set SIFT_DATA_DIR to another directory.",
    );
    this.dataDir = dataDir;
    this.ownerPid = ownerPid;
  }
}

/**
 * Takes the lock or throws `DataDirBusyError` at once (never waits). Keep the
 * returned file open for the life of the process: closing it releases the lock.
 *
 * @example
 * const lock = await lockDataDir(".data"); // throws DataDirBusyError when held
 */
export async function lockDataDir(dataDir: string): Promise<Deno.FsFile> {
  await Deno.mkdir(dataDir, { recursive: true });
  const path = `${dataDir}/${LOCK_FILE}`;
  // Not truncated on open: the owner's pid must stay readable until the lock is ours.
  const file = await Deno.open(path, { read: true, write: true, create: true });
  if (!(await file.tryLock(true))) {
    file.close();
    throw new DataDirBusyError(dataDir, await ownerPidOf(path));
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  return file;
}

async function ownerPidOf(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await Deno.readTextFile(path), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** For entries: the lock, or the one-line error and exit status 1. */
export async function lockDataDirOrExit(dataDir: string): Promise<Deno.FsFile> {
  try {
    return await lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
