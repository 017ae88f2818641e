/**
 * Files that once stalled the whole server, sent to a real one from outside:
 * a DOCX that inflates to 300 MiB, a PDF whose page tree loops, an HTML page
 * of 100,000 nested elements. Each is answered (a 4xx naming the file, or
 * stored), and `/healthz`, asked every 200 ms meanwhile, answers each time.
 * The 20 s and 2 s bounds are the (#29), generous for a busy machine.
 */
import assert from "node:assert/strict";
import { loopingPagesPdf } from "../helpers/pdf.ts";
import { docxBomb } from "../helpers/zip.ts";
import { startService } from "./service.ts";
import { residentBytes, uploadFile, watchHealth } from "./watch.ts";

/** A fresh data directory per server: nothing from another run is loaded. */
const start = async () =>
  await startService({ DEMO_CORPUS: "false", SIFT_DATA_DIR: await Deno.makeTempDir() });
const MiB = 1024 * 1024;

Deno.test("a DOCX inflating to 300 MiB is refused with a 4xx in 20 s; /healthz answers within 2 s throughout, RSS rises at most 200 MB", async () => {
  const bomb = await docxBomb(300 * MiB);
  assert.ok(bomb.byteLength < 1 * MiB, `${bomb.byteLength} bytes zipped`);
  await using service = await start();
  const before = await residentBytes(service.pid);
  const health = watchHealth(service);
  const upload = await uploadFile(service, "bomb.docx", bomb).catch(async (error) => {
    await health.stop();
    throw error;
  });
  const seen = await health.stop();
  assert.equal(upload.status, 413, JSON.stringify(upload.body));
  assert.match(
    upload.body.error?.message ?? "",
    /^bomb\.docx: expands past 52428800 bytes \(ARCHIVE_MAX_EXPANDED_BYTES\)/,
  );
  assert.ok(upload.seconds < 20, `answered in ${upload.seconds.toFixed(1)} s`);
  assert.ok(seen.times.length >= 1, "no health check ran");
  assert.ok(seen.slowest < 2000, `a /healthz took ${seen.slowest.toFixed(0)} ms`);
  const rise = (seen.peak - before) / 1e6;
  assert.ok(rise <= 200, `RSS rose ${rise.toFixed(0)} MB (from ${(before / 1e6).toFixed(0)} MB)`);
});

Deno.test("a PDF whose page tree points at itself gets a 400 naming the file and why", async () => {
  await using service = await start();
  const upload = await uploadFile(service, "loop.pdf", loopingPagesPdf());
  assert.equal(upload.status, 400, JSON.stringify(upload.body));
  assert.match(
    upload.body.error?.message ?? "",
    /^loop\.pdf: is damaged: Pages tree contains circular reference/,
  );
});

Deno.test("an HTML page of 100,000 nested elements is read while /healthz answers within 2 s throughout", async () => {
  const depth = 100_000;
  const html = `<!doctype html><html><body>${"<div>".repeat(depth)}deep text` +
    `${"</div>".repeat(depth)}</body></html>`;
  await using service = await start();
  const health = watchHealth(service);
  const bytes = new TextEncoder().encode(html);
  const upload = await uploadFile(service, "deep.html", bytes).catch(async (error) => {
    await health.stop();
    throw error;
  });
  const seen = await health.stop();
  assert.equal(upload.status, 201, JSON.stringify(upload.body));
  assert.ok(seen.slowest < 2000, `a /healthz took ${seen.slowest.toFixed(0)} ms`);
});
