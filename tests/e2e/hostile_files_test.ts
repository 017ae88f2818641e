/**
 * Files nobody named, sent to a real server from outside (#40): each is read
 * in a child process with a memory ceiling, so a file that exhausts a parser
 * ends that child and gets a 4xx, and the server answers `/healthz`
 * throughout with its own memory where it was.
 */
import assert from "node:assert/strict";
import { makeDocx } from "../helpers/docx.ts";
import { columnLines, makePdf } from "../helpers/pdf.ts";
import { cmapBombPdf, flateBombPdf } from "../helpers/hostile_pdf.ts";
import { startService } from "./service.ts";
import { residentBytes, uploadFile, watchHealth } from "./watch.ts";

const start = async (env: Record<string, string> = {}) =>
  await startService({ DEMO_CORPUS: "false", SIFT_DATA_DIR: await Deno.makeTempDir(), ...env });
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

/** The processes running `parse-child.ts` whose parent is `pid`. */
function parseChildrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (parent === pid && command.includes("parse-child.ts")) children.push(Number(entry.name));
    } catch { /* gone meanwhile */ }
  }
  return children;
}

const isRunning = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return false;
  }
};

Deno.test("a server stopped at once (a second SIGTERM) while it parses a file ends that parse's child with it", async () => {
  // Two thousand pages: seconds of pdf.js, so the stop lands while the file is parsed.
  const words = "tide harbour current shoal beacon mooring".split(" ");
  const book = makePdf(
    Array.from({ length: 2000 }, () => columnLines(words, { x: 72, top: 720, count: 30 })),
  );
  const service = await start({ PDF_MAX_PAGES: "5000" });
  const upload = uploadFile(service, "book.pdf", book).catch(() => undefined);
  let children: number[] = [];
  const deadline = Date.now() + 30_000;
  while (children.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    children = parseChildrenOf(service.pid);
  }
  assert.equal(children.length, 1, "no parse child started");
  // The first signal waits for the upload; the second exits now, as a second Ctrl-C does.
  Deno.kill(service.pid, "SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 100));
  Deno.kill(service.pid, "SIGTERM");
  await service.close();
  await upload;
  // SIGKILL is sent as the server exits, but a child tearing down a large heap takes a moment
  // to die on a busy machine: wait for that, not for a parse that would go on.
  const gone = Date.now() + 1_000;
  while (children.some(isRunning) && Date.now() < gone) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(children.filter(isRunning), []);
});
