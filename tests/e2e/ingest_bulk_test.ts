/**
 * `deno task ingest --bulk`: the same searches as the ingest through the app,
 * lines with their own vectors, adding to an index that has a checkpoint, a
 * document's later line replacing it whole (in one piece or a later one), and
 * a line that is no document. The index is read back from the data directory
 * by a fresh in-process app.
 */
import assert from "node:assert/strict";
import { float32Base64 } from "../../shared/embeddings/base64.ts";
import { bulkIngest } from "../../scripts/bulk-ingest.ts";
import { FIXTURES } from "../helpers/documents.ts";
import { appOn, runIngest } from "./ingest_cli.ts";

const WORDS = ("retrieval dense sparse ranking fusion transformer attention encoder decoder " +
  "pretraining corpus benchmark question answer passage token embedding vector index")
  .split(" ");

/** Documents of a few sentences each, drawn from a small vocabulary. */
function documentLines(count: number, prefix: string, seed: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => {
    const text = Array.from({ length: 40 }, () => WORDS[Math.floor(next() * WORDS.length)])
      .join(" ");
    return JSON.stringify({ id: `${prefix}-${i}`, title: `Paper ${i % 9}`, text });
  });
}

async function search(dataDir: string, query: string, mode: string) {
  const response = await appOn(dataDir)("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, mode, top_k: 10 }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const body = await response.json() as { results: { id: string; score: number }[] };
  return body.results.map((hit) => [hit.id, hit.score.toFixed(6)]);
}

async function documentCount(dataDir: string): Promise<number> {
  const app = appOn(dataDir);
  let count = 0;
  let cursor: string | undefined;
  do {
    const response = await app(
      `/v1/documents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    const page = await response.json() as { data: unknown[]; next_cursor: string | null };
    count += page.data.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return count;
}

Deno.test("ingest --bulk: the same searches as ingest through the app, and onto that index", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const file = `${dir}/papers.jsonl`;
    await Deno.writeTextFile(file, documentLines(300, "paper", 1).join("\n") + "\n");
    const bulk = await runIngest(["--bulk", file], `${dir}/bulk`);
    assert.equal(bulk.code, 0, bulk.stderr);
    // Piped: a line per durable piece, then the total.
    assert.match(bulk.stdout, /papers\.jsonl: 300 lines, 300 chunks durable \(100%\)/);
    assert.match(bulk.stdout, /ingested 300 line\(s\) as 300 chunks into default in/);
    const plain = await runIngest([file], `${dir}/plain`);
    assert.equal(plain.code, 0, plain.stderr);
    for (const mode of ["dense", "sparse", "hybrid"]) {
      for (const query of ["dense retrieval fusion", "transformer encoder pretraining"]) {
        assert.deepEqual(
          await search(`${dir}/bulk`, query, mode),
          await search(`${dir}/plain`, query, mode),
        );
      }
    }
    // Onto an index that has a checkpoint: another file, and one document replaced.
    const more = `${dir}/more.jsonl`;
    await Deno.writeTextFile(
      more,
      documentLines(120, "more", 2).concat(documentLines(1, "paper", 3)).join("\n"),
    );
    for (const dataDir of [`${dir}/bulk`, `${dir}/plain`]) {
      const again = await runIngest(["--bulk", "--workers", "1", more], dataDir);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(await documentCount(dataDir), 420);
    }
    assert.deepEqual(
      await search(`${dir}/bulk`, "question answer passage", "hybrid"),
      await search(`${dir}/plain`, "question answer passage", "hybrid"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ingest --bulk: a line's own vector (numbers or base64 float32) is its one chunk's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const file = `${dir}/vectors.jsonl`;
    await Deno.writeTextFile(
      file,
      [
        JSON.stringify({ id: "a", text: "Cats purr when content", vector: [1, 0, 0], lab: "x" }),
        JSON.stringify({
          id: "b",
          text: "Dogs bark at strangers",
          vector: float32Base64([0, 1, 0]),
        }),
      ].join("\n"),
    );
    const run = await runIngest(["--bulk", file], `${dir}/data`);
    assert.equal(run.code, 0, run.stderr);
    const response = await appOn(`${dir}/data`)("/v1/documents/a");
    const body = await response.json() as { data: { id: string; metadata: object }[] };
    assert.equal(body.data[0]?.id, "a#0");
    assert.equal((body.data[0]?.metadata as { lab?: string }).lab, "x"); // other fields kept
    assert.ok(!("vector" in body.data[0]!.metadata), "the vector is not metadata");
    assert.deepEqual((await search(`${dir}/data`, "dogs barking", "sparse"))[0]?.[0], "b#0");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ingest --bulk: a line that is no document stops it with the file and line, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const file = `${dir}/broken.jsonl`;
    await Deno.writeTextFile(file, `${JSON.stringify({ id: "a", text: "fine" })}\nnot json\n`);
    const run = await runIngest(["--bulk", file], `${dir}/data`);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /error: .*broken\.jsonl:2: not a JSON object/);
    assert.doesNotMatch(run.stderr, /^\s+at /m, run.stderr);
    const pdf = await runIngest(["--bulk", new URL("paper.pdf", FIXTURES).pathname], `${dir}/d2`);
    assert.equal(pdf.code, 1);
    assert.match(pdf.stderr, /--bulk takes \.jsonl files/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bulkIngest: small pieces keep every line once, and a bad line's number is the file's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const lines = documentLines(50, "line", 4);
    const file = `${dir}/many.jsonl`;
    await Deno.writeTextFile(file, lines.join("\n")); // no newline after the last line
    const seen: number[] = [];
    const done = await bulkIngest({
      files: [file],
      dataDir: `${dir}/data`,
      namespace: "default",
      workers: 2,
      pieceBytes: 700,
      onProgress: (progress) => seen.push(progress.lines),
    });
    assert.equal(done.lines, 50);
    assert.equal(done.chunks, 50);
    assert.ok(seen.length > 5, `${seen.length} pieces`);
    assert.equal(await documentCount(`${dir}/data`), 50);
    lines[36] = "{broken";
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    await assert.rejects(
      bulkIngest({
        files: [file],
        dataDir: `${dir}/data2`,
        namespace: "default",
        pieceBytes: 700,
      }),
      /many\.jsonl:37: not a JSON object/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Three chunks at the default 400-token windows. */
const LONG_TEXT = Array.from({ length: 1000 }, (_, i) => WORDS[i % WORDS.length]).join(" ");

/** A document's chunks as stored: id and the text's first words. */
async function chunksOf(dataDir: string, docId: string): Promise<string[][]> {
  const response = await appOn(dataDir)(`/v1/documents/${docId}`);
  if (response.status === 404) return [];
  const body = await response.json() as { data: { id: string; text: string }[] };
  return body.data.map((chunk) => [chunk.id, chunk.text.slice(0, 40)]);
}

/** Two lines of each document: `shrinks` goes from three chunks to one, `grows` from one to three. */
const SHORT_TEXT = "the short version";
const FIRST_LINES = [{ id: "shrinks", text: LONG_TEXT }, { id: "grows", text: SHORT_TEXT }];
const LAST_LINES = [{ id: "shrinks", text: SHORT_TEXT }, { id: "grows", text: LONG_TEXT }];

/** Each document holds exactly its last line's chunks. */
async function assertLastLinesStand(dataDir: string) {
  assert.deepEqual(await chunksOf(dataDir, "shrinks"), [["shrinks#0", SHORT_TEXT]]);
  assert.deepEqual(
    (await chunksOf(dataDir, "grows")).map(([id]) => id),
    ["grows#0", "grows#1", "grows#2"],
  );
}

Deno.test("ingest --bulk: a document's later line in the same piece replaces it whole, as ingest does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const file = `${dir}/versions.jsonl`;
    const lines = [...FIRST_LINES, { id: "between", text: "a line between them" }, ...LAST_LINES];
    await Deno.writeTextFile(file, lines.map((line) => JSON.stringify(line)).join("\n"));
    const bulk = await runIngest(["--bulk", file], `${dir}/bulk`);
    assert.equal(bulk.code, 0, bulk.stderr);
    await assertLastLinesStand(`${dir}/bulk`);
    assert.match(bulk.stdout, /versions\.jsonl: 5 lines, 5 chunks durable/);
    const plain = await runIngest([file], `${dir}/plain`);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    for (const docId of ["shrinks", "grows", "between"]) {
      assert.deepEqual(await chunksOf(`${dir}/bulk`, docId), await chunksOf(`${dir}/plain`, docId));
    }
    assert.equal(await documentCount(`${dir}/bulk`), 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bulkIngest: a document's later line in a later piece replaces it whole", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sift-bulk-" });
  try {
    const file = `${dir}/versions.jsonl`;
    const lines = [
      ...FIRST_LINES.map((line) => JSON.stringify(line)),
      ...documentLines(6, "between", 5),
      ...LAST_LINES.map((line) => JSON.stringify(line)),
    ];
    await Deno.writeTextFile(file, lines.join("\n"));
    const pieces: number[] = [];
    await bulkIngest({
      files: [file],
      dataDir: `${dir}/data`,
      namespace: "default",
      workers: 2,
      pieceBytes: 700,
      onProgress: (progress) => pieces.push(progress.lines),
    });
    // The first lines (1 and 2) and the last (9 and 10) in different pieces.
    const pieceOf = (line: number) => {
      let before = 0;
      return pieces.findIndex((lines) => (before += lines) >= line);
    };
    assert.ok(pieceOf(2) < pieceOf(9), `pieces of ${pieces.join(", ")} lines`);
    await assertLastLinesStand(`${dir}/data`);
    assert.equal(await documentCount(`${dir}/data`), 8);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
