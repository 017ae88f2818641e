/**
 * Helpers for tests of uploaded files: the fixtures, poppler's `pdftotext`
 * as the reference for how much of a PDF's text is recovered, and reading a
 * document's stored chunks back through `/v1/search`.
 */
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";

export const FIXTURES = new URL("../fixtures/documents/", import.meta.url);

export async function fixture(name: string): Promise<Uint8Array> {
  return await Deno.readFile(new URL(name, FIXTURES));
}

/** Words as both sides are compared: lower case, letters and digits, NFKC. */
export function wordsOf(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The text poppler's `pdftotext` finds on each page (form feeds split pages). */
export async function pdftotextPages(path: string | URL): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command("pdftotext", {
    args: [path instanceof URL ? path.pathname : path, "-"],
  }).output();
  if (code !== 0) throw new Error(`pdftotext failed: ${new TextDecoder().decode(stderr)}`);
  const pages = new TextDecoder().decode(stdout).split("\f");
  if (pages.at(-1)?.trim() === "") pages.pop();
  return pages;
}

/** The share of `reference`'s words (counted with repeats) that `recovered` holds. */
export function wordRecovery(reference: string, recovered: string): number {
  const have = new Map<string, number>();
  for (const word of wordsOf(recovered)) have.set(word, (have.get(word) ?? 0) + 1);
  const wanted = wordsOf(reference);
  let found = 0;
  for (const word of wanted) {
    const left = have.get(word) ?? 0;
    if (left > 0) {
      found++;
      have.set(word, left - 1);
    }
  }
  return wanted.length === 0 ? 1 : found / wanted.length;
}

/**
 * Lines of a pdftotext page fit to look for in the chunks: long enough to be
 * unique, and inside one sentence (a chunker may cut at a sentence's end).
 */
export function probeLines(page: string): string[] {
  return page.split("\n").map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => wordsOf(line).length >= 6 && !/[.!?:;]\s/.test(line.slice(0, -1)));
}

export type StoredChunk = { id: string; text: string; metadata: Record<string, unknown> };

/** An app with its own in-memory index, its env, and a count of a namespace's chunks. */
export function uploadApp(env: Record<string, string> = { DEMO_CORPUS: "false" }) {
  const runtime = new Runtime();
  const app = createSiftApp({ runtime });
  const count = async (namespace = "default") =>
    await runtime.deps(runtime.config(env)).index.count({ namespace });
  return { app, env, count };
}

/** `POST /v1/documents` as `multipart/form-data`, as `curl -F file=@...` sends it. */
export async function upload(
  app: ReturnType<typeof createSiftApp>,
  env: Record<string, string>,
  files: { name: string; bytes: Uint8Array }[],
  namespace?: string,
): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append("file", new Blob([file.bytes as BlobPart]), file.name);
  if (namespace) form.append("namespace", namespace);
  return await app.request("/v1/documents", { method: "POST", body: form }, env);
}

/** Every stored chunk of one document, read back through `/v1/search` with a filter. */
export async function storedChunks(
  fetchRoute: (path: string, init: RequestInit) => Response | Promise<Response>,
  docId: string,
  namespace = "default",
): Promise<StoredChunk[]> {
  const response = await fetchRoute("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: "the",
      mode: "dense",
      top_k: 100,
      namespace,
      filter: { doc_id: docId },
    }),
  });
  if (!response.ok) throw new Error(`search failed: ${response.status} ${await response.text()}`);
  const body = await response.json() as { results: StoredChunk[] };
  return body.results.sort((a, b) =>
    Number(a.metadata.chunk_index) - Number(b.metadata.chunk_index)
  );
}
