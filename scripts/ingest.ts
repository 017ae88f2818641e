/**
 * Loads documents into sift.
 *
 *   deno task ingest <file.jsonl|file.md|file.txt|folder> [--namespace ns]
 */
import { CliError, commandArgs, runCommand } from "./cli.ts";
import { connect } from "./client.ts";
import { batchDocuments, readDocuments } from "./documents.ts";

const USAGE = `usage: deno task ingest <file.jsonl|file.md|file.txt|folder>... [--namespace NS]

Loads documents into sift: into a server running at SIFT_URL (default http://127.0.0.1:$PORT,
PORT 8787), or, when none answers and SIFT_URL is unset, into the local index in SIFT_DATA_DIR.
.jsonl lines are {id?, title?, text, url?, published?, authors?, metadata?}; a .md or .txt file
is one document titled by its name; a folder is every such file in it.`;

const { values, positionals } = commandArgs(USAGE, { namespace: { type: "string" } });
if (positionals.length === 0) {
  console.error(USAGE);
  Deno.exit(2);
}

await runCommand(async () => {
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
      throw new CliError(
        `batch ${position + 1} failed (${response.status}): ${
          body.error?.message ?? JSON.stringify(body)
        }`,
      );
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
});
