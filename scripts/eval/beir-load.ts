import type { DocumentInput } from "../../shared/documents/ingest.ts";
import { readLines } from "./beir-lines.ts";

/**
 * A dataset in the BEIR layout (TREC-DL, NQ, HotpotQA, SciFact and the rest
 * are published in it):
 *
 *   <folder>/corpus.jsonl      {"_id", "title", "text"} per line
 *   <folder>/queries.jsonl     {"_id", "text", "metadata"?} per line
 *   <folder>/qrels/<split>.tsv query-id <TAB> corpus-id <TAB> score, after a header line
 *
 * A query's reference answers, when the dataset has them, are read from
 * `metadata.answer` or `metadata.answers` (a string or a list of strings).
 */
export type BeirQuery = { id: string; text: string; answers: string[] };

export type BeirDataset = {
  name: string;
  split: string;
  corpus: DocumentInput[];
  /** Only the queries the split judges, in the order of queries.jsonl. */
  queries: BeirQuery[];
  /** query id → corpus id → graded relevance (> 0 relevant). */
  qrels: Map<string, Map<string, number>>;
};

export type BeirLimits = {
  /** The most corpus documents read; more is an error naming the limit. */
  maxDocuments: number;
  /** The longest line (bytes) of any file. */
  maxLineBytes: number;
};

export const BEIR_DEFAULT_LIMITS: BeirLimits = {
  maxDocuments: 100_000,
  maxLineBytes: 16 * 1024 * 1024,
};

/** True when `folder` looks like a BEIR dataset (it has queries.jsonl). */
export async function isBeirFolder(folder: string): Promise<boolean> {
  return await Deno.stat(`${folder}/queries.jsonl`).then((info) => info.isFile, () => false);
}

function objectOf(line: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${where}: not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** `_id` as BEIR writes it: a string (some datasets write numbers). */
function idOf(record: Record<string, unknown>, where: string): string {
  const id = record._id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  if (typeof id !== "string" || id.trim() === "") throw new Error(`${where}: _id is missing`);
  return id;
}

function answersOf(metadata: unknown): string[] {
  if (typeof metadata !== "object" || metadata === null) return [];
  const record = metadata as Record<string, unknown>;
  const value = record.answer ?? record.answers;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((answer): answer is string => typeof answer === "string" && answer !== "");
}

/** Reads qrels/<split>.tsv; the first line is the header BEIR writes. */
export async function readQrels(
  path: string,
  limits: BeirLimits,
): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  for await (const { line, number } of readLines(path, limits.maxLineBytes)) {
    if (line.trim() === "") continue;
    const fields = line.split("\t");
    if (number === 1 && /^query[-_ ]?id$/i.test(fields[0]?.trim() ?? "")) continue;
    const [query, document, score] = fields.map((field) => field.trim());
    const grade = Number(score);
    if (fields.length !== 3 || !query || !document || score === "" || !Number.isFinite(grade)) {
      throw new Error(
        `${path}:${number}: expected query-id, corpus-id and a numeric score separated by tabs`,
      );
    }
    const judged = qrels.get(query) ?? new Map<string, number>();
    judged.set(document, grade);
    qrels.set(query, judged);
  }
  return qrels;
}

async function readCorpus(path: string, limits: BeirLimits): Promise<DocumentInput[]> {
  const documents: DocumentInput[] = [];
  const seen = new Set<string>();
  for await (const { line, number } of readLines(path, limits.maxLineBytes)) {
    if (line.trim() === "") continue;
    const where = `${path}:${number}`;
    const record = objectOf(line, where);
    const id = idOf(record, where);
    if (seen.has(id)) throw new Error(`${where}: _id "${id}" appears twice`);
    seen.add(id);
    if (typeof record.text !== "string") throw new Error(`${where}: text is missing`);
    if (documents.length === limits.maxDocuments) {
      throw new Error(
        `${path}: more than ${limits.maxDocuments} documents; raise --max-documents to read them all`,
      );
    }
    const title = typeof record.title === "string" && record.title ? record.title : undefined;
    documents.push({ id, text: record.text, ...(title ? { title } : {}) });
  }
  return documents;
}

async function readQueries(
  path: string,
  judged: ReadonlyMap<string, unknown>,
  limits: BeirLimits,
): Promise<BeirQuery[]> {
  const queries: BeirQuery[] = [];
  for await (const { line, number } of readLines(path, limits.maxLineBytes)) {
    if (line.trim() === "") continue;
    const where = `${path}:${number}`;
    const record = objectOf(line, where);
    const id = idOf(record, where);
    if (typeof record.text !== "string" || record.text.trim() === "") {
      throw new Error(`${where}: text is missing`);
    }
    // BEIR evaluates only the queries its split judges; queries.jsonl holds every split's.
    if (judged.has(id)) {
      queries.push({ id, text: record.text, answers: answersOf(record.metadata) });
    }
  }
  return queries;
}

/**
 * Loads a BEIR folder: the split's qrels first, then only the queries they
 * judge, then the corpus. Errors name the file and line.
 */
export async function loadBeir(
  folder: string,
  split = "test",
  limits: BeirLimits = BEIR_DEFAULT_LIMITS,
): Promise<BeirDataset> {
  const qrelsPath = `${folder}/qrels/${split}.tsv`;
  if (!await Deno.stat(qrelsPath).then(() => true, () => false)) {
    const splits: string[] = [];
    try {
      for await (const entry of Deno.readDir(`${folder}/qrels`)) {
        if (entry.name.endsWith(".tsv")) splits.push(entry.name.replace(/\.tsv$/, ""));
      }
    } catch { /* no qrels folder: said below */ }
    throw new Error(
      `${qrelsPath}: no such file; ${
        splits.length ? `splits here: ${splits.sort().join(", ")} (--split)` : "no qrels/*.tsv"
      }`,
    );
  }
  const qrels = await readQrels(qrelsPath, limits);
  const queries = await readQueries(`${folder}/queries.jsonl`, qrels, limits);
  const corpus = await readCorpus(`${folder}/corpus.jsonl`, limits);
  const name = folder.replace(/\/+$/, "").split("/").pop() || "beir";
  return { name, split, corpus, queries, qrels };
}
