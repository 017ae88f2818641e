/**
 * Loads documents into sift.
 *
 *   deno task ingest <file|folder>... [--namespace ns] [--force]
 *   deno task ingest --bulk <file.jsonl>... [--workers n]   (no server: into SIFT_DATA_DIR)
 */
import { CliError, type Command, commandArgs, runCommand, usageMistake } from "../cli/cli.ts";
import { progressReporter } from "./progress.ts";
import { connect, type SiftFetch } from "./client.ts";
import { batchDocuments, readDocuments } from "./documents.ts";
import { filesToIngest, type IngestFile, refuseSharedIds } from "./ingest-files.ts";
import { runBulkIngest } from "./bulk-ingest.ts";

const COMMAND = {
  usage: "deno task ingest <file|folder>... [options]",
  about:
    `Loads documents into sift: into a server running at SIFT_URL (default http://127.0.0.1:$PORT,
PORT 8787), or, when none answers and SIFT_URL is unset, into the local index in SIFT_DATA_DIR
(default .data). PDF, Word (.docx), HTML, Markdown and text files, and any of them gzipped (.gz), are
sent as they are and read by sift (their type told by their bytes); a file sift cannot read (an image, a scan, an encrypted
PDF) is skipped with the reason. .jsonl lines are {id?, title?, text, url?, published?, authors?,
metadata?}; a later line with a document's id replaces that document. A folder is every file under
it, each a document whose id is its path under the folder, extension kept (alpha/README.md); a file
named alone is its name without the extension (Tide Tables.pdf: Tide-Tables). Two files with one id
stop the run before anything is sent. A file whose bytes sift already holds under its id (their
SHA-256, content_sha256) is skipped as unchanged, which is no failure (--force sends it again). On a
terminal one line shows the count, files per second and time left, and skipped files are listed
with why; piped, each file is a line ([n/total] path: ingested, N chunks | unchanged (skipped) |
skipped (why)).
The exit code is 1 when any was skipped for a reason other than unchanged.
With --bulk (no server may run), .jsonl files go straight into the index in SIFT_DATA_DIR: pieces of
~40 MB of lines parsed, chunked, embedded and analyzed in workers, each piece durable (one fsynced log
record) before its progress line, one checkpoint at the end. A line with a "vector" (numbers, or
base64 of little-endian float32) is one chunk with that vector; lines without one are embedded.`,
  flags: {
    namespace: { type: "string", value: "NS", help: "the index namespace", default: "default" },
    bulk: {
      type: "boolean",
      help: "large .jsonl files straight into the local index in SIFT_DATA_DIR (no server may " +
        "run): parsed, embedded and analyzed in workers, a line's own vector used as given",
    },
    workers: { type: "string", value: "N", help: "--bulk's workers", default: "the cores" },
    force: {
      type: "boolean",
      help: "send unchanged files as changed: parsed, chunked and stored again (after a " +
        "CHUNK_SIZE change, say)",
    },
  },
  more: "env: SIFT_URL, PORT, SIFT_DATA_DIR, SIFT_API_KEY (sent as a bearer token)",
} satisfies Command;

const { values, positionals } = commandArgs(COMMAND);
if (positionals.length === 0) usageMistake(COMMAND, "no file or folder to ingest");

const LARGEST_FILE_BYTES = 100 * 1024 * 1024;

type Outcome = { chunks: number } | { unchanged: true } | { skipped: string };

/** The error's message from a failed reply, or its status. */
async function failureOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch { /* not sift's error shape */ }
  return `HTTP ${response.status}`;
}

/**
 * A file's bytes to `/v1/documents` as an upload under its id: sift tells its
 * type and parses it, unless it holds these bytes under that id already.
 */
async function sendFile(sift: SiftFetch, file: IngestFile, name: string): Promise<Outcome> {
  // No server takes a file this large (FILE_MAX_BYTES is at most 100 MiB): skip it unread.
  const { size } = await Deno.stat(file.path);
  if (size > LARGEST_FILE_BYTES) {
    return { skipped: `is ${size} bytes, over the 100 MiB any sift takes (FILE_MAX_BYTES)` };
  }
  const form = new FormData();
  if (file.id) form.append("id", file.id); // names the file part after it
  form.append("file", new Blob([await Deno.readFile(file.path)]), name);
  if (values.namespace) form.append("namespace", values.namespace);
  if (!values.force) form.append("skip_unchanged", "true");
  const response = await sift("/v1/documents", { method: "POST", body: form });
  if (response.status >= 400 && response.status < 500) {
    // The message names the file first; say only why.
    const why = await failureOf(response);
    return { skipped: why.startsWith(`${name}: `) ? why.slice(name.length + 2) : why };
  }
  if (!response.ok) throw new CliError(`${name}: sift failed (${await failureOf(response)})`);
  const reply = await response.json() as { chunks: number; unchanged?: string[] };
  return reply.unchanged?.length ? { unchanged: true } : { chunks: reply.chunks };
}

/** A `.jsonl` file's lines as documents, in batches under the ingest limits. */
async function sendLines(sift: SiftFetch, path: string): Promise<Outcome> {
  let chunks = 0;
  for (const batch of batchDocuments(await readDocuments(path))) {
    const response = await sift("/v1/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        documents: batch,
        ...(values.namespace ? { namespace: values.namespace } : {}),
      }),
    });
    if (response.status >= 400 && response.status < 500) {
      return { skipped: await failureOf(response) };
    }
    if (!response.ok) throw new CliError(`${path}: sift failed (${await failureOf(response)})`);
    chunks += (await response.json() as { chunks: number }).chunks;
  }
  return { chunks };
}

await runCommand(async () => {
  const targets = await filesToIngest(positionals);
  const files = targets.map((file) => file.path);
  if (values.bulk) {
    const workers = values.workers === undefined ? undefined : Number(values.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) {
      usageMistake(COMMAND, "--workers: a whole number above 0");
    }
    return await runBulkIngest(files, {
      namespace: values.namespace ?? "default",
      ...(workers ? { workers } : {}),
    });
  }
  refuseSharedIds(targets);
  const sift = await connect();
  console.log(`sift: ${sift.where}; ${files.length} file(s)`);
  let ingested = 0;
  let unchanged = 0;
  let chunks = 0;
  const skipped: string[] = [];
  const started = performance.now();
  const encoder = new TextEncoder();
  const progress = progressReporter({
    total: files.length,
    tty: Deno.stdout.isTerminal(),
    write: (text) => Deno.stdout.writeSync(encoder.encode(text)),
  });
  for (const file of targets) {
    const path = file.path;
    const name = path.split("/").pop() ?? path;
    let outcome: Outcome;
    try {
      outcome = file.id === undefined
        ? await sendLines(sift.fetch, path)
        : await sendFile(sift.fetch, file, name);
    } catch (error) {
      if (error instanceof SyntaxError || (error as Error).message?.includes("not a JSON object")) {
        outcome = { skipped: (error as Error).message.replace(`${path}:`, "line") };
      } else {
        progress.end();
        throw error;
      }
    }
    if ("chunks" in outcome) {
      ingested++;
      chunks += outcome.chunks;
      progress.file(`${path}: ingested, ${outcome.chunks} chunks`, "ok");
    } else if ("unchanged" in outcome) {
      unchanged++;
      progress.file(`${path}: unchanged (skipped)`, "ok");
    } else {
      skipped.push(path);
      progress.file(`${path}: skipped (${outcome.skipped})`, "skipped");
    }
  }
  progress.end();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `ingested ${ingested} file(s) as ${chunks} chunks into ${values.namespace ?? "default"} ` +
      `in ${seconds.toFixed(1)} s (${
        (files.length / Math.max(seconds, 0.001)).toFixed(1)
      } files/s)` +
      (unchanged ? `; ${unchanged} unchanged (skipped)` : "") +
      (skipped.length ? `; skipped ${skipped.length}: ${skipped.join(", ")}` : ""),
  );
  if (skipped.length) {
    throw new CliError(
      skipped.length === 1 && files.length === 1
        ? `${skipped[0]} was not ingested (see above)`
        : `${skipped.length} of ${files.length} files were skipped (see above)`,
    );
  }
});
