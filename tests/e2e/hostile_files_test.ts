/**
 * Files nobody named, sent to a real server from outside (#40): each is read
 * in a child process with a memory ceiling, so a file that exhausts a parser
 * ends that child and gets a 4xx, and the server answers `/healthz`
 * throughout with its own memory where it was.
 */
import assert from "node:assert/strict";
import { makeDocx } from "../helpers/docx.ts";
import { cmapBombPdf, flateBombPdf } from "../helpers/hostile_pdf.ts";
import { startService } from "./service.ts";
import { residentBytes, uploadFile, watchHealth } from "./watch.ts";

const start = async () =>
  await startService({ DEMO_CORPUS: "false", SIFT_DATA_DIR: await Deno.makeTempDir() });
const GiB = 1024 * 1024 * 1024;

Deno.test("a sub-1 KB PDF whose font maps 100M codes, uploaded five times in a row, gets a 413 each time while /healthz answers", async () => {
  const bomb = cmapBombPdf();
  assert.ok(bomb.byteLength < 1024, `${bomb.byteLength} bytes`);
  await using service = await start();
  const health = watchHealth(service);
  const statuses: number[] = [];
  try {
    for (let upload = 1; upload <= 5; upload++) {
      const { status, body } = await uploadFile(service, "font.pdf", bomb);
      statuses.push(status);
      assert.match(body.error?.message ?? "", /^font\.pdf: needs more than \d+ MB to read/);
    }
  } finally {
    await health.stop();
  }
  assert.deepEqual(statuses, [413, 413, 413, 413, 413]);
  const response = await fetch(`${service.url}/healthz`);
  assert.equal(response.status, 200);
  assert.equal((await response.json()).status, "ok");
});

Deno.test("a PDF whose content stream inflates to 1 GiB, three times, gets a 4xx each time and leaves the server within 400 MB of its memory before", async () => {
  const bomb = await flateBombPdf(GiB);
  assert.ok(bomb.byteLength < 2 * 1024 * 1024, `${bomb.byteLength} bytes`);
  await using service = await start();
  const before = await residentBytes(service.pid);
  const health = watchHealth(service);
  const statuses: number[] = [];
  try {
    for (let upload = 1; upload <= 3; upload++) {
      statuses.push((await uploadFile(service, "drawing.pdf", bomb)).status);
    }
  } finally {
    await health.stop();
  }
  assert.deepEqual(statuses, [413, 413, 413]);
  const rise = (await residentBytes(service.pid) - before) / 1e6;
  assert.ok(rise <= 400, `RSS rose ${rise.toFixed(0)} MB (from ${(before / 1e6).toFixed(0)} MB)`);
});

Deno.test("a 2 KB DOCX nesting 100,000 runs is answered", async () => {
  const depth = 100_000;
  const docx = makeDocx(
    `<w:p>${"<w:r>".repeat(depth)}<w:t>deep run text</w:t>${"</w:r>".repeat(depth)}</w:p>`,
  );
  assert.ok(docx.byteLength < 4096, `${docx.byteLength} bytes`);
  await using service = await start();
  const started = performance.now();
  const upload = await uploadFile(service, "nested.docx", docx);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(upload.status, 201, JSON.stringify(upload.body));
  // The bound is 15 s (it took 21.6 s walked quadratically); far more here for a busy machine.
  assert.ok(seconds < 60, `answered in ${seconds.toFixed(1)} s`);
});
