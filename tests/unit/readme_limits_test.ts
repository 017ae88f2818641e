/**
 * The limits table of docs/limits-and-safety.md (once the limits page's) states
 * every value in `LIMITS`: adding a limit without a row here fails to
 * type-check, and changing one without the page fails the test.
 */
import assert from "node:assert/strict";
import { LIMITS } from "../../shared/limits.ts";
import { formatBytes } from "../../shared/http/body.ts";

const PAGE = await Deno.readTextFile(new URL("../../docs/limits-and-safety.md", import.meta.url));

const n = (value: number) => value.toLocaleString("en-US");

/** Each limit: the table row that states it (its first cell), and the words that must appear. */
const STATED: Record<keyof typeof LIMITS, [row: string, words: string]> = {
  queryChars: ["query", `${n(LIMITS.queryChars)} characters`],
  documentsPerIngest: ["documents per `POST /v1/documents`", `${n(LIMITS.documentsPerIngest)};`],
  documentChars: [
    "documents per `POST /v1/documents`",
    `each at most ${n(LIMITS.documentChars)} characters`,
  ],
  ingestBodyBytes: [
    "documents per `POST /v1/documents`",
    `body at most ${formatBytes(LIMITS.ingestBodyBytes)}`,
  ],
  bodyBytes: ["", ""], // stated in the paragraph below the table, checked apart
  embeddingInputs: ["`/v1/embeddings` inputs", `${n(LIMITS.embeddingInputs)} strings`],
  embeddingInputChars: [
    "`/v1/embeddings` inputs",
    `at most ${n(LIMITS.embeddingInputChars)} characters`,
  ],
  answerDocuments: ["documents per `POST /v1/answer`", `${n(LIMITS.answerDocuments)};`],
  answerDocumentChars: [
    "documents per `POST /v1/answer`",
    `each at most ${n(LIMITS.answerDocumentChars)} characters`,
  ],
  topK: ["`top_k`", `1 to ${n(LIMITS.topK)}`],
  queryVariations: ["query variations", `0 to ${n(LIMITS.queryVariations)}`],
  fuseRankings: ["pure fusion", `${n(LIMITS.fuseRankings)} rankings`],
  fuseRankingLength: ["pure fusion", `at most ${n(LIMITS.fuseRankingLength)} ids`],
  rerankDocuments: ["documents per rerank", `${n(LIMITS.rerankDocuments)},`],
  rerankDocumentChars: [
    "documents per rerank",
    `each at most ${n(LIMITS.rerankDocumentChars)} characters`,
  ],
  rerankBatchSize: ["documents per rerank", `\`batch_size\` 1 to ${n(LIMITS.rerankBatchSize)}`],
};

/** `| what | limit |` rows of the `## Limits` section, by their first cell. */
function limitsTable(): Map<string, string> {
  const section = PAGE.split("\n## Limits\n")[1]?.split("\n## ")[0] ?? "";
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = /^\|\s*(.+?)\s*\|\s*(.+?)\s*\|$/.exec(line);
    if (cells) rows.set(cells[1]!, cells[2]!);
  }
  return rows;
}

Deno.test("the limits page's table states every value in LIMITS", () => {
  const rows = limitsTable();
  for (const [name, [row, words]] of Object.entries(STATED)) {
    if (!row) continue;
    const stated = rows.get(row);
    assert.ok(stated !== undefined, `${name}: no row "${row}"`);
    assert.ok(
      stated.includes(words),
      `${name}: row "${row}" says "${stated}", not "${words}"`,
    );
  }
});

Deno.test("the limits page states the default and the document body limits from LIMITS", () => {
  const prose = PAGE.replace(/\s+/g, " ");
  assert.match(prose, new RegExp(`${formatBytes(LIMITS.bodyBytes)} for every other route`));
  assert.match(prose, new RegExp(`${formatBytes(LIMITS.ingestBodyBytes)} for \`/v1/documents\``));
});
