/**
 * `deno task ingest` with the files people have: PDFs, a folder of mixed
 * files, and files sift refuses. The CLI sends bytes; the stored chunks are
 * read back from the same data directory.
 */
import assert from "node:assert/strict";
import {
  FIXTURES,
  pdftotextPages,
  probeLines,
  storedChunks,
  wordRecovery,
  wordsOf,
} from "../helpers/documents.ts";
import { appOn, runIngest } from "./ingest_cli.ts";

const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at /m, text);

/** Chunks stored in a data directory, read through a fresh in-process app. */
const chunksIn = (dataDir: string, docId: string) => storedChunks(appOn(dataDir), docId);

Deno.test("deno task ingest paper.pdf stores at least 93% of pdftotext's words, every chunk with its page", async () => {
  const dataDir = await Deno.makeTempDir();
  for (const name of ["paper.pdf", "newsletter.pdf"]) {
    const path = new URL(name, FIXTURES).pathname;
    const run = await runIngest([path], dataDir);
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
    const run = await runIngest([new URL(name, FIXTURES).pathname], dataDir);
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
  const search = await appOn(dataDir)("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "tide harbour", mode: "sparse" }),
  });
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
  const run = await runIngest([folder], await Deno.makeTempDir());
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
