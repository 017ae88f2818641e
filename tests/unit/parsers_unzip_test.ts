import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../shared/documents/refusal.ts";
import { deflateEntry, docxBomb, zipOf } from "../helpers/zip.ts";
import { unzipEntries } from "../../functions/embed/parsers/unzip.ts";

const DOCUMENT = "word/document.xml";
const MiB = 1024 * 1024;

function refusedAs(why: RegExp, status: number) {
  return (error: unknown) => {
    assert.ok(error instanceof DocumentRefusedError, String(error));
    assert.equal(error.status, status);
    assert.match(error.message, why);
    return true;
  };
}

Deno.test("unzipEntries() stops a bomb at ARCHIVE_MAX_EXPANDED_BYTES, whatever size its headers declare", async () => {
  // Headers that claim 100 bytes, and headers that tell the truth: the same refusal.
  for (const declaredSize of [100, undefined]) {
    const bomb = await docxBomb(40 * MiB, declaredSize ? { declaredSize } : {});
    await assert.rejects(
      unzipEntries(bomb, [DOCUMENT], { file: "bomb.docx", maxExpandedBytes: 4 * MiB }),
      refusedAs(/^bomb\.docx: expands past 4194304 bytes \(ARCHIVE_MAX_EXPANDED_BYTES\)/, 413),
    );
  }
});

Deno.test("unzipEntries() reads an entry whose headers claim 4 GB: nothing is sized from them", async () => {
  const entry = await deflateEntry(DOCUMENT, [new TextEncoder().encode("<w:document/>")]);
  const archive = zipOf([{ ...entry, declaredSize: 0xfffffff0 }]);
  const entries = await unzipEntries(archive, [DOCUMENT], {
    file: "claims.docx",
    maxExpandedBytes: MiB,
  });
  assert.equal(new TextDecoder().decode(entries.get(DOCUMENT)), "<w:document/>");
});

Deno.test("unzipEntries() gives the event loop turns while it inflates", async () => {
  const bomb = await docxBomb(64 * MiB);
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  try {
    const entries = await unzipEntries(bomb, [DOCUMENT], {
      file: "big.docx",
      maxExpandedBytes: 65 * MiB,
    });
    assert.equal(entries.get(DOCUMENT)?.byteLength, 64 * MiB);
  } finally {
    clearInterval(ticker);
  }
  assert.ok(turns > 0, "no timer ran while 64 MiB inflated");
});

Deno.test("unzipEntries() names a cut-off archive truncated, and a corrupt stream damaged", async () => {
  const entry = await deflateEntry(DOCUMENT, [
    new TextEncoder().encode("<w:t>tide</w:t>".repeat(2000)),
  ]);
  const whole = zipOf([entry]);
  await assert.rejects(
    unzipEntries(whole.slice(0, 60), [DOCUMENT], { file: "cut.docx", maxExpandedBytes: MiB }),
    refusedAs(/^cut\.docx: is truncated: /, 400),
  );
  const corrupt = zipOf([{
    ...entry,
    deflated: entry.deflated.map((byte, at) => at > 2 ? 0xff : byte),
  }]);
  await assert.rejects(
    unzipEntries(corrupt, [DOCUMENT], { file: "corrupt.docx", maxExpandedBytes: MiB }),
    refusedAs(/^corrupt\.docx: is damaged: /, 400),
  );
});
