/**
 * `deno task ingest <folder>` loses nothing: same-named files in different
 * folders are different documents (ids are paths under the folder), two
 * files with one id stop the run, and a second run skips what has not changed.
 */
import assert from "node:assert/strict";
import { appOn, runIngest } from "./ingest_cli.ts";

type SearchBody = { results: { doc_id: string }[] };

/** The folder the tests ingest: three READMEs and a changelog, each with a word only it has. */
const TREE: Record<string, string> = {
  "a/README": "Aardvarks dig burrows at night.",
  "b/README": "Bumblebees visit clover at noon.",
  "c/README": "Capybaras graze beside the river.",
  "c/changelog": "Dromedaries crossed the dunes in version two.",
};

async function writeTree(files: Record<string, string>): Promise<string> {
  const folder = await Deno.makeTempDir({ prefix: "sift-ingest-tree-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${folder}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${folder}/${path}`, text);
  }
  return folder;
}

/** The ids of the documents a word finds in `dataDir`, through `/v1/search`. */
async function found(dataDir: string, word: string): Promise<string[]> {
  const response = await appOn(dataDir)("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: word, mode: "sparse" }),
  });
  return [...new Set((await response.json() as SearchBody).results.map((hit) => hit.doc_id))];
}

Deno.test("a folder's files are documents by their path, a second run skips them as unchanged, and a changed one alone is replaced", async () => {
  const folder = await writeTree(TREE);
  const dataDir = await Deno.makeTempDir();
  try {
    const first = await runIngest([folder], dataDir);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /ingested 4 file\(s\) as 4 chunks/);
    assert.deepEqual(await found(dataDir, "aardvarks"), ["a/README"]);
    assert.deepEqual(await found(dataDir, "bumblebees"), ["b/README"]);
    assert.deepEqual(await found(dataDir, "capybaras"), ["c/README"]);
    assert.deepEqual(await found(dataDir, "dromedaries"), ["c/changelog"]);

    const second = await runIngest([folder], dataDir);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /ingested 0 file\(s\) as 0 chunks .*; 4 unchanged \(skipped\)$/m);
    assert.equal(second.stdout.match(/: unchanged \(skipped\)$/gm)?.length, 4, second.stdout);

    await Deno.writeTextFile(`${folder}/c/changelog`, "Echidnas arrived in version three.");
    const third = await runIngest([folder], dataDir);
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stdout, /c\/changelog: ingested, 1 chunks/);
    assert.match(third.stdout, /ingested 1 file\(s\) as 1 chunks .*; 3 unchanged \(skipped\)$/m);
    assert.deepEqual(await found(dataDir, "dromedaries"), []);
    assert.deepEqual(await found(dataDir, "echidnas"), ["c/changelog"]);

    // --force sends every file again.
    const forced = await runIngest([folder, "--force"], dataDir);
    assert.match(
      forced.stdout,
      /ingested 4 file\(s\) as 4 chunks into default in [\d.]+ s \([\d.]+ files\/s\)$/m,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("two files that would be one document stop the run before anything is sent, naming both", async () => {
  const left = await writeTree({ "README": "Gannets nest on cliffs." });
  const right = await writeTree({ "README": "Puffins nest in burrows.", "other.md": "Terns." });
  const dataDir = await Deno.makeTempDir();
  try {
    const run = await runIngest([left, right], dataDir);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr.trim(),
      new RegExp(
        `^error: one document id names more than one file.*"README" \\(${left}/README, ${right}/README\\).*nothing was sent$`,
      ),
    );
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.deepEqual(await found(dataDir, "terns"), []);
  } finally {
    for (const path of [left, right, dataDir]) await Deno.remove(path, { recursive: true });
  }
});

Deno.test("a gzipped file in a folder is sent like any other and read as the text inside it", async () => {
  const text = "Flamingos wade in the salt lagoon.";
  const gzipped = new Uint8Array(
    await new Response(
      new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const folder = await writeTree({ "c/README": "Capybaras graze." });
  await Deno.writeFile(`${folder}/c/changelog.gz`, gzipped);
  const dataDir = await Deno.makeTempDir();
  try {
    const run = await runIngest([folder], dataDir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /c\/changelog\.gz: ingested, 1 chunks/);
    assert.deepEqual(await found(dataDir, "flamingos"), ["c/changelog.gz"]);
  } finally {
    await Deno.remove(folder, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
});
