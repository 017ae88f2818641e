/**
 * The embedded index's query path in-process (`lib/vector-index/bench/query.ts`)
 * on ARAGOG-like text at the sizes of #30: chunks of 250 consecutive words of
 * the ARAGOG papers (as `bench-index.ts` makes them), the first 40 ARAGOG
 * questions as queries; with `--dense`, 1,536-d clustered vectors
 * (`denseEmbedder`); with `--hashed`, the offline model's hashed lexical
 * vectors (held as postings per dimension) on chunks of 100 words, as
 * `bench-restart.ts http` ingests them. BM25 beside the exhaustive BM25 it replaced, and dense
 * and hybrid times; sizes run in one process, so growth figures are ratios
 * from one run.
 *
 *   deno run -A scripts/bench-query.ts [--sizes 30000,300000] [--dense | --hashed]
 */
import { denseEmbedder } from "./dense-embeddings.ts";
import { hashedEmbedding } from "../shared/embeddings/hashed.ts";
import { makeDocuments } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";
import { benchQuery, type QueryRow } from "../lib/vector-index/bench/query.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno run -A scripts/bench-query.ts [options]",
  about:
    `The embedded index's query path in-process on ARAGOG's papers and questions: BM25 beside the
exhaustive BM25 it replaced, and dense and hybrid times given vectors; growth as ratios from one run.`,
  flags: {
    sizes: {
      type: "string",
      value: "N,N",
      help: "chunks per size, in order",
      default: "30000,300000",
    },
    dense: { type: "boolean", help: "1,536-d clustered vectors (the rows layout)" },
    hashed: {
      type: "boolean",
      help: "the offline model's hashed vectors on 100-word chunks (the postings layout)",
    },
  },
} satisfies Command;

export type { QueryRow };

/** The library's query bench over ARAGOG's papers and questions. */
export async function benchQueryAragog(
  sizes: number[],
  options: { dense?: boolean; hashed?: boolean; datasetDir?: string } = {},
): Promise<QueryRow[]> {
  const { documents, questions } = await readDataset(
    options.datasetDir ?? "../shared/datasets/aragog",
  );
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const hashed = (text: string) => Float32Array.from(hashedEmbedding(text));
  return benchQuery(sizes, {
    documents: (size) =>
      makeDocuments(words, 11)(size).map((document) =>
        options.hashed
          ? { ...document, text: document.text.split(" ").slice(0, 100).join(" ") }
          : document
      ),
    queries: questions.slice(0, 40).map((question) => question.question),
    embed: options.dense ? denseEmbedder() : options.hashed ? hashed : undefined,
  });
}

if (import.meta.main) {
  const { values, positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  if (values.dense && values.hashed) {
    usageMistake(COMMAND, "--dense and --hashed exclude each other");
  }
  const sizes = String(values.sizes ?? "30000,300000").split(",").map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    usageMistake(COMMAND, "--sizes must be whole numbers above 0, separated by commas");
  }
  const rows = await benchQueryAragog(sizes, {
    dense: Boolean(values.dense),
    hashed: Boolean(values.hashed),
  });
  const growth = rows.length > 1 && rows[0]!.hybrid_ms
    ? { hybrid_p50_growth: rows.at(-1)!.hybrid_ms!.p50 / rows[0]!.hybrid_ms!.p50 }
    : {};
  const sparseGrowth = rows.length > 1
    ? { sparse_p50_growth: rows.at(-1)!.sparse_ms.p50 / rows[0]!.sparse_ms.p50 }
    : {};
  console.log(JSON.stringify({ rows, ...sparseGrowth, ...growth }, null, 2));
}
