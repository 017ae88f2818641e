import assert from "node:assert/strict";
import { loadBeir, readQrels } from "../../scripts/eval/beir-load.ts";
import { cellPipeline, gridCells } from "../../scripts/eval/beir-grid.ts";
import { documentRanking, scoreQuery } from "../../scripts/eval/beir-metrics.ts";
import { runGrid } from "../../scripts/eval/beir-run.ts";
import { parseCliArgs } from "../../scripts/eval/cli-args.ts";

const LIMITS = { maxDocuments: 10, maxLineBytes: 1000 };

async function folder(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.mkdir(`${root}/qrels`);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${root}/${name}`, text);
  }
  return root;
}

const CORPUS = [
  { _id: "d1", title: "One", text: "alpha" },
  { _id: 2, title: "", text: "beta" },
  { _id: "d3", text: "gamma" },
].map((line) => JSON.stringify(line)).join("\n");
const QUERIES = [
  { _id: "q1", text: "alpha?", metadata: { answer: "alpha" } },
  { _id: "q2", text: "nobody judges me" },
  { _id: "q3", text: "beta?", metadata: { answers: ["beta", "b"] } },
].map((line) => JSON.stringify(line)).join("\n");

Deno.test("loadBeir() reads the split's queries, graded qrels, answers and the corpus", async () => {
  const root = await folder({
    "corpus.jsonl": CORPUS + "\n",
    "queries.jsonl": QUERIES,
    "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td3\t0\r\nq3\t2\t1\n",
  });
  try {
    const dataset = await loadBeir(root, "test", LIMITS);
    assert.deepEqual(dataset.queries, [
      { id: "q1", text: "alpha?", answers: ["alpha"] },
      { id: "q3", text: "beta?", answers: ["beta", "b"] },
    ]);
    assert.deepEqual([...dataset.qrels.get("q1")!], [["d1", 2], ["d3", 0]]);
    assert.deepEqual(dataset.corpus.map((document) => document.id), ["d1", "2", "d3"]);
    assert.equal(dataset.corpus[1]!.title, undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadBeir() names the file and line of what it cannot read", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1 d1 1\n" }, /qrels\/test\.tsv:2: expected/],
    [{ "qrels/test.tsv": "q1\td1\tmany\n" }, /qrels\/test\.tsv:1: expected/],
    [
      { "queries.jsonl": '{"_id": "q1", "text": "a"}\n{"_id": "q2"\n' },
      /queries\.jsonl:2: not JSON/,
    ],
    [{ "queries.jsonl": '{"text": "a"}\n' }, /queries\.jsonl:1: _id is missing/],
    [
      { "corpus.jsonl": '{"_id": "d1", "text": "a"}\n{"_id": "d1", "text": "b"}' },
      /corpus\.jsonl:2: _id "d1" appears twice/,
    ],
    [{ "corpus.jsonl": '{"_id": "d1"}\n' }, /corpus\.jsonl:1: text is missing/],
    [
      { "corpus.jsonl": `{"_id": "d1", "text": "${"x".repeat(2000)}"}\n` },
      /corpus\.jsonl:1: a line longer than 1000 bytes/,
    ],
    [{
      "corpus.jsonl": Array.from({ length: 11 }, (_, i) => `{"_id": "d${i}", "text": "t"}`).join(
        "\n",
      ),
    }, /more than 10 documents; raise --max-documents/],
  ];
  for (const [override, expected] of cases) {
    const root = await folder({
      "corpus.jsonl": CORPUS,
      "queries.jsonl": QUERIES,
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
      ...override,
    });
    try {
      await assert.rejects(loadBeir(root, "test", LIMITS), expected, String(expected));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("loadBeir() lists the splits there are when the one asked for is missing", async () => {
  const root = await folder({
    "queries.jsonl": QUERIES,
    "qrels/dev.tsv": "",
    "qrels/train.tsv": "",
  });
  try {
    await assert.rejects(
      loadBeir(root, "test", LIMITS),
      /test\.tsv: no such file; splits here: dev, train/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readQrels() keeps a first line that is data, not a header", async () => {
  const root = await folder({ "qrels/test.tsv": "q1\td1\t1\nq1\td2\t2" });
  try {
    const qrels = await readQrels(`${root}/qrels/test.tsv`, LIMITS);
    assert.deepEqual([...qrels.get("q1")!], [["d1", 1], ["d2", 2]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scoreQuery() computes nDCG@10 with graded gains, Recall@k, MRR@10, utility and EM/F1", () => {
  const judged = new Map([["a", 2], ["b", 1], ["c", 0], ["z", 1]]);
  const scores = scoreQuery(
    { ranking: ["c", "a", "x", "b"], kept: ["c", "a"], answer: "The alpha" },
    judged,
    ["alpha"],
    3,
  );
  // DCG = 2/log2(3) + 1/log2(5); ideal [2, 1, 1] = 2 + 1/log2(3) + 1/log2(4).
  const dcg = 2 / Math.log2(3) + 1 / Math.log2(5);
  const ideal = 2 + 1 / Math.log2(3) + 0.5;
  assert.ok(Math.abs(scores.ndcg10 - dcg / ideal) < 1e-12);
  assert.equal(scores.recall, 1 / 3, "only a of a, b, z within the first 3");
  assert.equal(scores.mrr10, 0.5);
  assert.deepEqual(scores.utility, { precision: 0.5, recall: 1 / 3, f1: 0.4 });
  assert.equal(scores.em, 1);
  assert.equal(scores.f1, 1);
  const noAnswers = scoreQuery({ ranking: [], kept: [], answer: "" }, judged, [], 10);
  assert.equal(noAnswers.em, undefined);
  assert.equal(noAnswers.ndcg10, 0);
});

Deno.test("documentRanking() keeps each corpus document once, at its best passage's rank", () => {
  assert.deepEqual(documentRanking(["p", "q", "p", "r", "q"]), ["p", "q", "r"]);
});

Deno.test("cellPipeline() turns strategy and mode names into pipelines, with options", () => {
  const settings = { namespace: "ns", topK: 10, keep: 3 };
  const item = cellPipeline("item:A_s:pointwise:implicit:top5", "dense+fusion", settings);
  assert.deepEqual(item.retrieval, { mode: "dense", top_k: 10, fusion: 4 });
  assert.equal(item.rerank?.top_n, 3);
  assert.deepEqual(item.rerank?.item, {
    variant: "A_s",
    answer: "implicit",
    judgment: "pointwise",
    m: 3,
    start: "top5",
  });
  // ToT keeps every survivor unless a cut is asked for.
  assert.equal(cellPipeline("tot", "sparse", settings).rerank?.top_n, 10);
  const cut = cellPipeline("tot:sentence:cut2", "hybrid", settings).rerank;
  assert.deepEqual([cut?.top_n, cut?.tot?.unit], [2, "sentence"]);
  assert.equal(gridCells(["none", "one-turn"], ["sparse", "hybrid"], settings).length, 4);
  for (
    const [strategy, mode, message] of [
      ["rankgpt", "sparse", /"rankgpt@sparse" is not a variant/],
      ["item:A_r:pointwise", "sparse", /pointwise judgments need item variant A_s/],
      ["one-turn:fast", "sparse", /only item and tot take options/],
      ["none", "bm25", /"bm25" is not a mode/],
      ["tot:cut0", "sparse", /tot has no option "cut0"/],
    ] as const
  ) {
    assert.throws(() => cellPipeline(strategy, mode, settings), message);
  }
});

Deno.test("parseCliArgs() reads the BEIR grid's options", () => {
  const options = parseCliArgs(
    [
      "--dataset",
      "d",
      "--strategies",
      "none,tot",
      "--modes",
      "sparse",
      "--top-k",
      "20",
      "--keep",
      "3",
    ],
    "/base",
  );
  assert.ok(options !== "help");
  assert.deepEqual(
    [options.strategies, options.modes, options.topK, options.keep],
    ["none,tot", "sparse", 20, 3],
  );
  assert.throws(
    () => parseCliArgs(["--dataset", "d", "--top-k", "0"], "/"),
    /--top-k must be at least 1/,
  );
});

Deno.test("runGrid() scores each run, counts its model calls, and records a failed run without scoring it", async () => {
  let calls = 0;
  const scopes: (string | undefined)[] = [];
  const steps = {
    runVariant: (
      _deps: unknown,
      input: { query: string; pipeline: { retrieval: { mode: string } } },
      _signal?: AbortSignal,
      call?: { cacheScope?: string | undefined },
    ) => {
      scopes.push(call?.cacheScope);
      if (input.pipeline.retrieval.mode === "dense" && input.query === "second") {
        return Promise.reject(new Error("the model is down"));
      }
      calls += 2;
      const passage = (id: string, doc_id: string) => ({ id, doc_id, text: "t" });
      return Promise.resolve({
        answer: "alpha",
        answered: true,
        citations: 0,
        retrieved: [{ ...passage("b#0", "b"), score: 1 }, { ...passage("a#0", "a"), score: 0.5 }],
        kept: [passage("a#0", "a")],
        steps: [],
        total_ms: 250,
        tokens_in: 10,
        tokens_out: 5,
        output_chars: 5,
        chars_per_second: 20,
        degraded: false,
      });
    },
  };
  const settings = { namespace: "ns", topK: 10, keep: 10 };
  const cells = gridCells(["none"], ["sparse", "dense"], settings);
  const results = await runGrid(
    {} as never,
    steps as never,
    {
      queries: [
        { id: "q1", text: "first", answers: ["alpha"] },
        { id: "q2", text: "second", answers: [] },
      ],
      qrels: new Map([["q1", new Map([["a", 1]])], ["q2", new Map([["b", 1]])]]),
    },
    cells,
    { recallK: 10, calls: () => calls },
  );
  const [sparse, dense] = results;
  assert.deepEqual([...sparse!.scores.keys()], ["q1", "q2"]);
  assert.equal(sparse!.scores.get("q1")!.mrr10, 1, "the kept document ranks first");
  assert.equal(sparse!.scores.get("q1")!.em, 1);
  assert.equal(sparse!.scores.get("q2")!.mrr10, 0.5);
  assert.deepEqual(sparse!.runs.get("q1"), { calls: 2, tokens: 15, ms: 250, degraded: false });
  assert.deepEqual([...dense!.scores.keys()], ["q1"], "the failed run is not scored");
  assert.deepEqual(dense!.failed, [{ query: "q2", message: "the model is down" }]);
  // One cache scope per cell, the same for every query of that cell.
  assert.equal(new Set(scopes).size, 2);
  assert.ok(scopes.every((scope) => /^beir-[a-z0-9]+-[01]$/.test(scope ?? "")));
});
