/**
 * `deno task ingest` with the files people have: PDFs, a folder of mixed
 * files, and files sift refuses. The CLI sends bytes; the stored chunks are
 * read back from the same data directory.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { indexLogIn } from "../../shared/deno/data-dir.ts";
import {
  FIXTURES,
  pdftotextPages,
  probeLines,
  storedChunks,
  wordRecovery,
  wordsOf,
} from "../helpers/documents.ts";
import { freePort } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ENV = { DEMO_CORPUS: "false" };

async function ingest(args: string[], dataDir: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "scripts/ingest.ts",
      ...args,
    ],
    cwd: ROOT,
    // No server on this port: the CLI works in-process on the data directory.
    env: { NO_COLOR: "1", SIFT_DATA_DIR: dataDir, PORT: String(freePort()), ...ENV },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at /m, text);

/** Chunks stored in a data directory, read through a fresh in-process app. */
async function chunksIn(dataDir: string, docId: string) {
  const app = createSiftApp({ log: indexLogIn(dataDir) });
  return await storedChunks((path, init) => app.request(path, init, ENV), docId);
}

Deno.test("deno task ingest paper.pdf stores at least 93% of pdftotext's words, every chunk with its page", async () => {
  const dataDir = await Deno.makeTempDir();
  for (const name of ["paper.pdf", "newsletter.pdf"]) {
    const path = new URL(name, FIXTURES).pathname;
    const run = await ingest([path], dataDir);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`${name}: ingested, \\d+ chunks`));
    const chunks = await chunksIn(dataDir, name.replace(".pdf", ""));
    const pages = await pdftotextPages(path);
    const recovered = wordRecovery(pages.join("\n"), chunks.map((chunk) => chunk.text).join("\n"));
    assert.ok(recovered >= 0.93, `${name}: ${(recovered * 100).toFixed(1)}%`);
    assert.ok(chunks.every((chunk) => typeof chunk.metadata.page === "number"));
    assert.ok(chunks.every((chunk) => chunk.metadata.source === name));
    const lastPage = pages.length;
    const line = probeLines(pages[lastPage - 1]!)[0]!;
    const holder = chunks.find((chunk) =>
      wordsOf(chunk.text).join(" ").includes(wordsOf(line).join(" "))
    );
    assert.ok(holder, line);
    assert.ok(Number(holder.metadata.page) <= lastPage);
    assert.ok(Number(holder.metadata.page_end ?? holder.metadata.page) >= lastPage);
  }
});

Deno.test("deno task ingest on a refused file is one line naming why, exit 1, and stores nothing", async () => {
  const dataDir = await Deno.makeTempDir();
  for (
    const [name, why] of [
      ["photo.txt", /photo\.txt: skipped \(is a PNG image, not text\)/],
      ["encrypted.pdf", /encrypted\.pdf: skipped \(is an encrypted PDF/],
      ["scanned.pdf", /scanned\.pdf: skipped \(looks scanned.*OCR is not done\)/],
    ] as const
  ) {
    const run = await ingest([new URL(name, FIXTURES).pathname], dataDir);
    assert.equal(run.code, 1);
    assert.match(run.stdout, why);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.match(
      run.stderr.trim(),
      new RegExp(`^error: .*${name.replace(".", "\\.")} was not ingested`),
    );
    noStackTrace(run.stderr);
    noStackTrace(run.stdout);
  }
  const app = createSiftApp({ log: indexLogIn(dataDir) });
  const search = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "tide harbour", mode: "sparse" }),
  }, ENV);
  assert.deepEqual((await search.json() as { results: unknown[] }).results, []);
});

Deno.test("deno task ingest on a folder reports every file: ingested with chunks, or skipped with why", async () => {
  const folder = await Deno.makeTempDir();
  for (const name of ["paper.pdf", "photo.txt", "encrypted.pdf", "scanned.pdf"]) {
    await Deno.copyFile(new URL(name, FIXTURES), `${folder}/${name}`);
  }
  await Deno.mkdir(`${folder}/notes`);
  await Deno.writeTextFile(
    `${folder}/notes/harbour.md`,
    "# Harbour\n\nThe quay was rebuilt in May.",
  );
  await Deno.writeTextFile(
    `${folder}/notes/page.html`,
    "<!doctype html><title>Quay</title><p>Boats.</p>",
  );
  await Deno.writeFile(`${folder}/empty.txt`, new Uint8Array());
  const run = await ingest([folder], await Deno.makeTempDir());
  assert.equal(run.code, 1);
  for (const name of ["paper.pdf", "notes/harbour.md", "notes/page.html"]) {
    assert.match(run.stdout, new RegExp(`${name}: ingested, \\d+ chunks`));
  }
  for (const name of ["photo.txt", "encrypted.pdf", "scanned.pdf", "empty.txt"]) {
    assert.match(run.stdout, new RegExp(`/${name.replace(".", "\\.")}: skipped \\(.+\\)`));
  }
  assert.match(run.stdout, /ingested 3 file\(s\).*skipped 4:/);
  assert.match(run.stderr.trim(), /^error: 4 of 7 files were skipped/);
  noStackTrace(run.stderr);
});
