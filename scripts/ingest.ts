/**
 * Loads documents into sift.
 *
 *   deno task ingest <file.jsonl|file.md|file.txt|folder> [--namespace ns]
 */
import { parseArgs } from "node:util";
import { connect } from "./client.ts";
import { batchDocuments, readDocuments } from "./documents.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { namespace: { type: "string" } },
});
if (positionals.length === 0) {
  console.error("usage: deno task ingest <file.jsonl|file.md|file.txt|folder>... [--namespace NS]");
  Deno.exit(2);
}

const documents = (await Promise.all(positionals.map(readDocuments))).flat();
const sift = await connect();
console.log(`sift: ${sift.where}; ${documents.length} documents`);
let chunks = 0;
for (const [position, batch] of batchDocuments(documents).entries()) {
  const response = await sift.fetch("/v1/documents", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      documents: batch,
      ...(values.namespace ? { namespace: values.namespace } : {}),
    }),
  });
  const body = await response.json();
  if (!response.ok) {
    console.error(
      `batch ${position + 1} failed (${response.status}): ${
        body.error?.message ?? JSON.stringify(body)
      }`,
    );
    Deno.exit(1);
  }
  chunks += body.chunks;
  for (const document of body.documents as { id: string; chunks: number }[]) {
    console.log(`  ${document.id}: ${document.chunks} chunks`);
  }
}
console.log(
  `ingested ${documents.length} documents as ${chunks} chunks into ${
    values.namespace ?? "default"
  }`,
);
