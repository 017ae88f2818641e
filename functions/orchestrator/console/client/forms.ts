/** What the forms ask sift for: a pipeline's options, the documents to ingest. */
import { field, input } from "./dom.ts";

/** The `pipeline` of a `/v1/query` request, as the forms fill it in. */
export interface Pipeline {
  retrieval: { mode: string; top_k?: number; fusion?: number };
  namespace: string;
  rerank?: { strategy: string; top_n: number };
}

/** The pipeline's options from a form; `prefix` keeps the two sides of Compare apart. */
export function pipelineOf(form: HTMLFormElement, prefix?: string): Pipeline {
  const named = (name: string) => (prefix || "") + name;
  const value = (name: string) => field(form, named(name)).value;
  const pipeline: Pipeline = {
    retrieval: { mode: value("mode") },
    namespace: field(form, "namespace").value || "default",
  };
  if (value("top_k")) pipeline.retrieval.top_k = Number(value("top_k"));
  if (input(form, named("fusion")).checked) {
    pipeline.retrieval.fusion = Number(value("variations") || 4);
  }
  if (value("strategy")) {
    pipeline.rerank = { strategy: value("strategy"), top_n: Number(value("top_n") || 3) };
  }
  return pipeline;
}

/** A document to ingest from pasted text, with the id and title the form gives. */
interface PastedDocument {
  text: string;
  id?: string;
  title?: string;
}

/** The documents in pasted text: one JSON document per line (.jsonl), else the text as one. */
export function documentsOf(
  text: string,
  fileName: string | false,
  form: HTMLFormElement,
): unknown[] {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const jsonl = /\.jsonl$/i.test(fileName || "") ||
    (lines.length > 0 && lines.every((line) => line.startsWith("{") && line.endsWith("}")));
  if (jsonl) return lines.map((line) => JSON.parse(line));
  const document: PastedDocument = { text };
  if (field(form, "id").value) document.id = field(form, "id").value;
  if (field(form, "title").value) document.title = field(form, "title").value;
  return [document];
}

/** Files go as they are (multipart, what curl -F sends): sift tells their type from their bytes. */
export function uploadOf(files: readonly File[], namespace: string): FormData {
  const upload = new FormData();
  for (const file of files) upload.append("file", file, file.name);
  upload.append("namespace", namespace);
  return upload;
}
