/** ITEM's loop (`functions/rerank/item/loop.ts`) against a fake model that records its calls. */
import assert from "node:assert/strict";
import { itemOptionsSchema } from "../../shared/rerank/item-options.ts";
import { type FakeCall, fakeLlm, type FakeReply } from "../helpers/fake_llm.ts";
import { Ledger } from "../../functions/rerank/item/ask.ts";
import { runItem } from "../../functions/rerank/item/loop.ts";

/** Seven documents whose text says which they are, so a prompt's order can be read back. */
const DOCUMENTS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]
  .map((word) => ({ text: `Passage ${word}.` }));

/** The documents a prompt presents, by their word, in the order shown. */
function presented(call: FakeCall): string[] {
  return [...call.user.matchAll(/^\[\d+\] Passage (\w+)\.$/gm)].map((match) => match[1]!);
}

function step(call: FakeCall): string {
  return call.prompt.replace(/@\d+$/, "");
}

async function run(reply: FakeReply, options: Record<string, unknown>, structured = false) {
  const { llm, calls } = fakeLlm(reply, { model: "fake", structured });
  const ledger = new Ledger();
  const result = await runItem(
    { llm, ledger, query: "Which passage?", documents: DOCUMENTS, signal: undefined },
    itemOptionsSchema.parse(options),
  );
  return { result, calls, ledger };
}

Deno.test("runItem() stops at m when the utility set keeps changing, and says max_iterations", async () => {
  let selections = 0;
  const { result, ledger } = await run((call) => {
    if (step(call) === "item-answer") return `answer ${selections}`;
    // Alternates between two sets, so no iteration repeats the previous one.
    return ++selections % 2 ? "[2] > [1]" : "[3]";
  }, { variant: "A_s", m: 3 });
  assert.equal(result.stop_reason, "max_iterations");
  assert.deepEqual(result.iterations.map((iteration) => iteration.answer), [
    "answer 0",
    "answer 1",
    "answer 2",
  ]);
  assert.ok(result.iterations.every((iteration) => !iteration.degraded));
  assert.deepEqual(result.iterations.map((iteration) => iteration.utility), [[1, 0], [2], [1, 0]]);
  assert.deepEqual(result.order, [1, 0, 2, 3, 4, 5, 6], "utility set first, then retrieval order");
  assert.equal(ledger.llm_calls, 6);
  assert.deepEqual([ledger.tokens_in, ledger.tokens_out], [60, 12], "every call's tokens");
});

Deno.test("runItem() stops when the utility set equals the previous one, in any order", async () => {
  let selections = 0;
  const { result } = await run((call) => {
    if (step(call) === "item-answer") return "an answer";
    return ++selections === 1 ? "[4] > [2]" : "[2] > [4]";
  }, { variant: "A_s", m: 5 });
  assert.equal(result.stop_reason, "unchanged");
  assert.equal(result.iterations.length, 2);
  assert.deepEqual(result.utility, [1, 3], "the last judgment's order");
});

Deno.test("runItem() writes the first answer from every candidate (U_0 = D) and later ones from U_{t-1}", async () => {
  for (const [start, first] of [[undefined, 7], ["top5", 5]] as const) {
    let selections = 0;
    const { calls } = await run((call) => {
      if (step(call) === "item-answer") return "an answer";
      return ++selections === 1 ? "[7] > [2]" : "[2] > [7] > [1]";
    }, { variant: "A_s", m: 3, ...(start ? { start } : {}) });
    const answers = calls.filter((call) => step(call) === "item-answer").map(presented);
    assert.deepEqual(answers, [
      ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"].slice(0, first),
      ["golf", "bravo"],
      ["bravo", "golf", "alpha"],
    ], `start: ${start ?? "all (default)"}`);
  }
});

Deno.test("runItem() AR_s presents each ranking in the previous one's order and judges over the new one", async () => {
  const { result, calls } = await run((call) => {
    const name = step(call);
    if (name === "item-answer") return "an answer";
    if (name === "item-relevance-ranking") return "[3] > [1]"; // left-out passages follow
    return "[1] > [2]";
  }, { variant: "AR_s", m: 2 });
  const shown = calls.filter((call) => step(call) !== "item-answer").map(presented);
  assert.deepEqual(shown[0], ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]);
  // R_1 = [3] > [1] then the rest: charlie, alpha, bravo, delta, ...
  assert.deepEqual(shown[1], ["charlie", "alpha", "bravo", "delta", "echo", "foxtrot", "golf"]);
  assert.deepEqual(shown[2], ["charlie", "alpha", "bravo", "delta", "echo", "foxtrot", "golf"]);
  // R_2 ranks R_1 as presented: its [3] is bravo.
  assert.deepEqual(shown[3], ["bravo", "charlie", "alpha", "delta", "echo", "foxtrot", "golf"]);
  assert.deepEqual(result.iterations[0]!.ranking, [2, 0, 1, 3, 4, 5, 6]);
  assert.deepEqual(result.iterations[0]!.utility, [2, 0]);
  assert.deepEqual(result.iterations[1]!.utility, [1, 2]);
  assert.equal(result.stop_reason, "max_iterations");
  // Utility set first, then the rest in the last relevance ranking.
  assert.deepEqual(result.order, [1, 2, 0, 3, 4, 5, 6]);
});

Deno.test("runItem() A_r takes the first five of the utility ranking as the set", async () => {
  const { result, calls } = await run((call) => {
    if (step(call) === "item-answer") return "an answer";
    assert.equal(step(call), "item-utility-ranking");
    return "[7] > [6] > [5] > [4] > [3] > [2] > [1]";
  }, { variant: "A_r", m: 3 });
  assert.deepEqual(result.iterations[0]!.ranking, [6, 5, 4, 3, 2, 1, 0]);
  assert.deepEqual(result.utility, [6, 5, 4, 3, 2]);
  assert.equal(result.stop_reason, "unchanged");
  assert.equal(calls.length, 4);
  assert.deepEqual(result.order, [6, 5, 4, 3, 2, 0, 1], "the rest in retrieval order");
});

Deno.test("runItem() AR_r ranks by relevance, then ranks that list by utility: U_t is its first five", async () => {
  const utilityInputs: string[][] = [];
  const { result, calls } = await run((call) => {
    if (step(call) === "item-answer") return "an answer";
    if (step(call) === "item-relevance-ranking") return "[2] > [1] > [3] > [4] > [5] > [6] > [7]";
    assert.equal(step(call), "item-utility-ranking");
    utilityInputs.push(presented(call));
    // Identifiers name the relevance ranking's order as presented: [1] is bravo.
    return "[3] > [1] > [2] > [4] > [5] > [6] > [7]";
  }, { variant: "AR_r", m: 2 });
  // R_1 = bravo, alpha, charlie, …; the utility ranking of R_1: charlie, bravo, alpha, delta, …
  assert.deepEqual(utilityInputs[0]!.slice(0, 3), ["bravo", "alpha", "charlie"]);
  assert.deepEqual(result.iterations[0]!.ranking, [2, 1, 0, 3, 4, 5, 6]);
  assert.deepEqual(result.iterations[0]!.utility, [2, 1, 0, 3, 4]);
  // Iteration 2 ranks R_1 (not the utility ranking) by relevance again: R_2 = alpha, bravo, …;
  // its utility ranking is charlie, alpha, bravo, …: the same set, so the loop stops.
  assert.deepEqual(
    calls.filter((call) => step(call) === "item-relevance-ranking").map(presented)[1]!.slice(0, 2),
    ["bravo", "alpha"],
  );
  assert.deepEqual(result.iterations[1]!.ranking, [2, 0, 1, 3, 4, 5, 6]);
  assert.equal(result.stop_reason, "unchanged");
  assert.deepEqual(result.order, [2, 0, 1, 3, 4, 5, 6], "the rest follow the utility ranking");
});

Deno.test("runItem() stops when consecutive answers converge under answer_stop, not otherwise", async () => {
  let selections = 0;
  const reply: FakeReply = (call) => {
    if (step(call) === "item-answer") return "BM25 ranks documents by term statistics.";
    return ++selections % 2 ? "[1]" : "[2]";
  };
  const converged = await run(reply, { variant: "A_s", m: 5, answer_stop: 0.9 });
  assert.equal(converged.result.stop_reason, "answer_converged");
  assert.equal(converged.result.iterations.length, 2);
  selections = 0;
  const plain = await run(reply, { variant: "A_s", m: 5 });
  assert.equal(plain.result.stop_reason, "max_iterations");
  assert.equal(plain.result.iterations.length, 5);
});

Deno.test("runItem() keeps the previous state on an empty or unusable reply, marks it degraded, and never calls it unchanged", async () => {
  let selections = 0;
  const { result } = await run((call) => {
    const name = step(call);
    if (name === "item-answer") return selections === 0 ? "first answer" : "";
    if (name === "item-relevance-ranking") return selections === 0 ? "[2] > [1]" : "no idea";
    return ++selections === 1 ? "[1]" : "";
  }, { variant: "AR_s", m: 3 });
  assert.equal(result.stop_reason, "max_iterations");
  const [first, second, third] = result.iterations;
  assert.equal(first!.degraded, undefined);
  assert.deepEqual(first!.utility, [1]);
  for (const iteration of [second!, third!]) {
    assert.equal(iteration.degraded, true);
    assert.equal(iteration.answer, "first answer", "the previous answer is kept");
    assert.deepEqual(iteration.ranking, [1, 0, 2, 3, 4, 5, 6], "the previous ranking is kept");
    assert.deepEqual(iteration.utility, [1], "the previous set is kept");
  }
  assert.ok(
    result.warnings.some((warning) =>
      /^iteration 2: the utility judgment was unusable/.test(warning)
    ),
  );
  assert.ok(
    result.warnings.some((warning) => /^iteration 3: the pseudo-answer was unusable/.test(warning)),
  );
});

Deno.test("runItem() pointwise judges each document concurrently; a failed call keeps that document's membership", async () => {
  let inFlight = 0;
  let most = 0;
  const { result, ledger } = await run(async (call) => {
    if (step(call) === "item-answer") return "an answer";
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inFlight--;
    const word = presented(call)[0];
    if (word === "bravo") return 500; // in U_0 (the top five): stays in
    if (word === "foxtrot") return "Hmm."; // not in U_0: stays out
    return ["alpha", "golf"].includes(word!) ? "Useful: yes" : "Useful: no";
  }, { variant: "A_s", judgment: "pointwise", m: 1, start: "top5" });
  assert.deepEqual(result.utility, [0, 1, 6], "retrieval order");
  assert.equal(result.iterations[0]!.degraded, true);
  assert.match(result.warnings[0]!, /documents 1, 5 was unusable/);
  assert.ok(most > 1 && most <= 4, `at most 4 in flight, saw ${most}`);
  assert.equal(
    ledger.llm_calls,
    9,
    "one answer, seven verdicts (the failed one counted), one correction for foxtrot's 'Hmm.'",
  );
  assert.equal(ledger.unreadable, 1);
  assert.equal(ledger.degraded, 1, "still unreadable after the correction");
});

Deno.test("runItem() in structured mode sends json_schema and reads JSON replies", async () => {
  const { result, calls } = await run(
    (call) => {
      const name = step(call);
      if (name === "item-answer") return JSON.stringify({ answer: "the answer" });
      if (name === "item-relevance-ranking") return JSON.stringify({ ranking: [2, 2, 8, 1] });
      return JSON.stringify({ useful: [1] });
    },
    { m: 1 },
    true,
  );
  assert.ok(calls.every((call) => call.json), "every call asks for json_schema");
  assert.equal(result.iterations[0]!.answer, "the answer");
  assert.deepEqual(result.iterations[0]!.ranking, [1, 0, 2, 3, 4, 5, 6]);
  assert.deepEqual(result.utility, [1]);
});

Deno.test("runItem() uses the implicit answer prompt when asked", async () => {
  const { calls } = await run(() => "Necessary information: a name.", {
    variant: "A_s",
    answer: "implicit",
    m: 1,
  });
  assert.equal(step(calls[0]!), "item-answer-implicit");
});

Deno.test("runItem() lets a cancelled request fail instead of degrading", async () => {
  const controller = new AbortController();
  const { llm } = fakeLlm(() => {
    controller.abort();
    return "an answer";
  }, { model: "fake" });
  await assert.rejects(runItem(
    { llm, ledger: new Ledger(), query: "q", documents: DOCUMENTS, signal: controller.signal },
    itemOptionsSchema.parse({ variant: "A_s" }),
  ));
});
