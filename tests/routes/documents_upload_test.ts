import assert from "node:assert/strict";
import {
  fixture,
  FIXTURES,
  pdftotextPages,
  probeLines,
  storedChunks,
  upload,
  uploadApp,
  wordRecovery,
  wordsOf,
} from "../helpers/documents.ts";
import { makeDocx, paragraph } from "../helpers/docx.ts";
import { type ErrorBody, readEvents } from "./helpers.ts";
import { createEmbedServer } from "../../functions/embed/server.ts";
import { createOrchestratorServer } from "../../functions/orchestrator/server.ts";
import { Runtime } from "../../compose/runtime.ts";

type IngestBody = { namespace: string; documents: { id: string; chunks: number }[] };

const HTML_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Okapi Field Notes</title>
<style>body { font-family: serif } .ad { color: red }</style>
<script>var tracking = 1; document.write("tracking pixel");</script></head>
<body>
<nav><a href="/">Home</a> <a href="/shop">Shop the gift store</a></nav>
<main>
<h1>The okapi in the wild</h1>
<p>The okapi is a shy forest animal with striped legs, seen by few visitors to the
<a href="/ituri">Ituri rainforest</a> even after weeks of waiting.</p>
<h2>What it eats</h2>
<ul><li>Leaves of understorey shrubs</li><li>Clay from riverbanks, for its salts</li></ul>
<table><tr><th>Month</th><th>Sightings</th></tr><tr><td>June</td><td>3</td></tr></table>
</main>
<footer>Copyright the field station; all rights kept.</footer>
</body></html>`;

for (const name of ["paper.pdf", "newsletter.pdf"]) {
  Deno.test(`an uploaded ${name} recovers at least 93% of pdftotext's words, with a page on every chunk and each line on its page`, async () => {
    const { app, env } = uploadApp();
    const response = await upload(app, env, [{ name, bytes: await fixture(name) }]);
    assert.equal(response.status, 201, await response.clone().text());
    const id = name.replace(/\.pdf$/, "");
    assert.deepEqual((await response.json() as IngestBody).documents.map((d) => d.id), [id]);
    const chunks = await storedChunks((path, init) => app.request(path, init, env), id);
    const pages = await pdftotextPages(new URL(name, FIXTURES));
    const recovered = wordRecovery(pages.join("\n"), chunks.map((chunk) => chunk.text).join("\n"));
    assert.ok(recovered >= 0.93, `${name}: ${(recovered * 100).toFixed(1)}% of pdftotext's words`);
    for (const chunk of chunks) {
      assert.equal(typeof chunk.metadata.page, "number", `${chunk.id} has no page`);
      assert.equal(chunk.metadata.source, name);
    }
    let probed = 0;
    for (const [index, page] of pages.entries()) {
      for (const line of probeLines(page).slice(0, 5)) {
        const words = wordsOf(line).join(" ");
        const holder = chunks.find((chunk) => wordsOf(chunk.text).join(" ").includes(words));
        assert.ok(holder, `${name} p.${index + 1}: no chunk holds "${line}"`);
        const first = Number(holder.metadata.page);
        const last = Number(holder.metadata.page_end ?? first);
        assert.ok(first <= index + 1 && index + 1 <= last, `"${line}": page ${first}-${last}`);
        probed++;
      }
    }
    assert.ok(probed >= 5, `only ${probed} lines probed`);
  });
}

Deno.test("a LaTeX paper's title comes from its first heading and its sections from its headings", async () => {
  const { app, env } = uploadApp();
  await upload(app, env, [{ name: "paper.pdf", bytes: await fixture("paper.pdf") }]);
  const chunks = await storedChunks((path, init) => app.request(path, init, env), "paper");
  assert.equal(
    chunks[0]?.metadata.title,
    "Tide Tables for Small Harbours: Predicting Slack Water from Cheap Sensors",
  );
  assert.ok(chunks.some((chunk) => String(chunk.metadata.section ?? "").includes("Method")));
});

Deno.test("the two-column newsletter is read one column after the other, not across", async () => {
  const { app, env } = uploadApp();
  await upload(app, env, [{ name: "newsletter.pdf", bytes: await fixture("newsletter.pdf") }]);
  const text = (await storedChunks((path, init) => app.request(path, init, env), "newsletter"))
    .map((chunk) => chunk.text).join("\n").replace(/\s+/g, " ");
  // Both sentences cross a line break inside the left column.
  assert.match(
    text,
    /After three summers of carrying watering cans from the single tap by the gate/,
  );
  assert.match(text, /Mrs Okafor’s two hives came through the winter strongly, and she expects/);
});

Deno.test("an uploaded HTML page is stored as text with its <title>, without script, style or navigation", async () => {
  const { app, env } = uploadApp();
  const bytes = new TextEncoder().encode(HTML_PAGE);
  const response = await upload(app, env, [{ name: "okapi.html", bytes }], "notes");
  assert.equal(response.status, 201, await response.clone().text());
  const chunks = await storedChunks((path, init) => app.request(path, init, env), "okapi", "notes");
  const text = chunks.map((chunk) => chunk.text).join("\n");
  assert.equal(chunks[0]?.metadata.title, "Okapi Field Notes");
  assert.equal(chunks[0]?.metadata.source, "okapi.html");
  assert.match(text, /striped legs, seen by few visitors to the Ituri rainforest/);
  assert.match(text, /Clay from riverbanks/);
  assert.match(text, /June \| 3/);
  for (const absent of ["<", "tracking", "font-family", "gift store", "Copyright"]) {
    assert.ok(!text.includes(absent), `stored text holds "${absent}"`);
  }
});

Deno.test("an uploaded DOCX is stored as its text, its Title style as the title", async () => {
  const { app, env } = uploadApp();
  const bytes = makeDocx(
    paragraph("Ferry Timetable Notes", "Title") +
      paragraph("Winter crossings", "Heading1") +
      paragraph("The first boat leaves the island at a quarter past six on weekdays.") +
      paragraph("Summer crossings", "Heading1") +
      paragraph("In July an extra boat runs after the evening concert on the quay."),
  );
  const response = await upload(app, env, [{ name: "ferry notes.docx", bytes }]);
  assert.equal(response.status, 201, await response.clone().text());
  const [id] = (await response.json() as IngestBody).documents.map((d) => d.id);
  assert.equal(id, "ferry-notes");
  const chunks = await storedChunks((path, init) => app.request(path, init, env), id!);
  const text = chunks.map((chunk) => chunk.text).join("\n");
  assert.equal(chunks[0]?.metadata.title, "Ferry Timetable Notes");
  assert.match(text, /first boat leaves the island at a quarter past six/);
  assert.match(text, /extra boat runs after the evening concert/);
  assert.ok(!text.includes("w:t"));
});

const REFUSALS: {
  what: string;
  name: string;
  bytes: () => Promise<Uint8Array>;
  env?: Record<string, string>;
  status: number;
  why: RegExp;
}[] = [
  {
    what: "a PNG named .txt",
    name: "photo.txt",
    bytes: () => fixture("photo.txt"),
    status: 415,
    why: /photo\.txt: is a PNG image, not text/,
  },
  {
    what: "an encrypted PDF",
    name: "encrypted.pdf",
    bytes: () => fixture("encrypted.pdf"),
    status: 400,
    why: /encrypted\.pdf: is an encrypted PDF/,
  },
  {
    what: "a scanned PDF",
    name: "scanned.pdf",
    bytes: () => fixture("scanned.pdf"),
    status: 400,
    why: /scanned\.pdf: looks scanned.*OCR is not done/,
  },
  {
    what: "an empty file",
    name: "empty.md",
    bytes: () => Promise.resolve(new Uint8Array()),
    status: 400,
    why: /empty\.md: is empty/,
  },
  {
    what: "a file over FILE_MAX_BYTES",
    name: "paper.pdf",
    bytes: () => fixture("paper.pdf"),
    env: { FILE_MAX_BYTES: "20000" },
    status: 413,
    why: /paper\.pdf: is over the limit of 20000 bytes \(FILE_MAX_BYTES\)/,
  },
  {
    what: "a PDF over PDF_MAX_PAGES",
    name: "paper.pdf",
    bytes: () => fixture("paper.pdf"),
    env: { PDF_MAX_PAGES: "1" },
    status: 413,
    why: /paper\.pdf: has 2 pages, over the limit of 1 \(PDF_MAX_PAGES\)/,
  },
  {
    what: "a DOCX that expands past ARCHIVE_MAX_EXPANDED_BYTES",
    name: "bomb.docx",
    bytes: () => Promise.resolve(makeDocx(paragraph("zero ".repeat(400_000)))),
    env: { ARCHIVE_MAX_EXPANDED_BYTES: "1000000" },
    status: 413,
    why: /bomb\.docx: expands past 1000000 bytes \(ARCHIVE_MAX_EXPANDED_BYTES\)/,
  },
];

for (const refusal of REFUSALS) {
  Deno.test(`an upload of ${refusal.what} is refused with ${refusal.status} naming why, and nothing is stored`, async () => {
    const { app, env, count } = uploadApp({ DEMO_CORPUS: "false", ...refusal.env });
    const kept = new TextEncoder().encode("# Kept\n\nA note uploaded before the refused file.");
    assert.equal((await upload(app, env, [{ name: "kept.md", bytes: kept }])).status, 201);
    const before = await count();
    // With a good file beside it in the same request: one refusal stores none of them.
    const response = await upload(app, env, [
      { name: "also-good.md", bytes: new TextEncoder().encode("Another note about ferries.") },
      { name: refusal.name, bytes: await refusal.bytes() },
    ]);
    assert.equal(response.status, refusal.status);
    const body: ErrorBody = await response.json();
    assert.match(body.error.message, refusal.why);
    assert.ok(!body.error.message.includes("\n"));
    assert.equal(await count(), before);
  });
}

Deno.test("an upload needs a file part and refuses unknown fields and a bad namespace", async () => {
  const { app, env } = uploadApp();
  const send = async (form: FormData) =>
    await app.request("/v1/documents", { method: "POST", body: form }, env);
  const noFile = new FormData();
  noFile.append("namespace", "notes");
  const missing = await send(noFile);
  assert.equal(missing.status, 400);
  assert.match((await missing.json() as ErrorBody).error.message, /^file:/);
  const odd = new FormData();
  odd.append("file", new Blob(["text"]), "a.txt");
  odd.append("nmespace", "notes");
  assert.match((await (await send(odd)).json() as ErrorBody).error.message, /nmespace/);
  const badNamespace = new FormData();
  badNamespace.append("file", new Blob(["text"]), "a.txt");
  badNamespace.append("namespace", "no spaces");
  assert.match((await (await send(badNamespace)).json() as ErrorBody).error.message, /^namespace:/);
});

Deno.test("the orchestrator alone forwards an upload to the embed function (a service binding), refusals included", async () => {
  const embedRuntime = new Runtime();
  const embed = createEmbedServer(embedRuntime);
  const env = {
    DEMO_CORPUS: "false",
    EMBED: { fetch: (request: Request) => embed.fetch(request, { DEMO_CORPUS: "false" }) },
  };
  const orchestrator = createOrchestratorServer(new Runtime());
  const send = async (name: string) => {
    const form = new FormData();
    form.append("file", new Blob([await fixture(name) as BlobPart]), name);
    form.append("namespace", "papers");
    return await orchestrator.fetch(
      new Request("http://sift.test/v1/documents", { method: "POST", body: form }),
      env,
    );
  };
  const stored = await send("paper.pdf");
  assert.equal(stored.status, 201, await stored.clone().text());
  assert.equal((await stored.json() as IngestBody).documents[0]?.id, "paper");
  const count = () =>
    embedRuntime.deps(embedRuntime.config({ DEMO_CORPUS: "false" })).index.count({
      namespace: "papers",
    });
  const chunks = await count();
  assert.ok(chunks > 0);
  const refused = await send("scanned.pdf");
  assert.equal(refused.status, 400);
  assert.match((await refused.json() as ErrorBody).error.message, /scanned\.pdf: looks scanned/);
  assert.equal(await count(), chunks);
});

Deno.test("GET /openapi.json describes the upload form of POST /v1/documents", async () => {
  const { app, env } = uploadApp();
  const document = await (await app.request("/openapi.json", {}, env)).json();
  const content = document.paths["/v1/documents"].post.requestBody.content;
  assert.ok(content["application/json"]);
  assert.deepEqual(content["multipart/form-data"].schema.required, ["file"]);
});

Deno.test("a multipart upload from a foreign web page (its Origin) is refused 403, and nothing is stored", async () => {
  const { app, env, count } = uploadApp();
  const form = new FormData();
  form.append("file", new Blob(["A note a foreign page tries to plant."]), "planted.txt");
  const response = await app.request("/v1/documents", {
    method: "POST",
    body: form,
    headers: { origin: "https://evil.example" },
  }, env);
  assert.equal(response.status, 403);
  assert.equal(await count(), 0);
});

Deno.test("/v1/query over an uploaded PDF cites the page each cited chunk came from", async () => {
  const { app, env } = uploadApp();
  const uploaded = await upload(app, env, [{
    name: "paper.pdf",
    bytes: await fixture("paper.pdf"),
  }]);
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "How often did the sensor foul during the trial?" }),
  }, env);
  assert.equal(response.status, 200, await response.clone().text());
  const events = await readEvents(response);
  const end = events.find((event) => event.event === "answer-end")?.data as {
    citations: { doc_id?: string; page?: number; label: string }[];
  };
  assert.ok(end, `no answer-end in ${events.map((event) => event.event).join(", ")}`);
  assert.ok(end.citations.length > 0, "the answer cites nothing");
  for (const citation of end.citations) {
    assert.equal(citation.doc_id, "paper");
    assert.equal(typeof citation.page, "number", JSON.stringify(citation));
    assert.match(citation.label, /p\. \d+/, citation.label);
  }
});
