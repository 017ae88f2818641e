/**
 * Issue #32's bar from outside: the held-out replies (never tuned on)
 * served by a real OpenAI-compatible server on loopback to the judge,
 * rerank and fuse routes with `LLM_STRUCTURED_OUTPUTS=false`. None may be
 * read confidently wrong, and at most 5 readable ones left degraded. A
 * correction turn gets the same reply again, as a stubborn model would.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { serveTextModel } from "../helpers/text_model_server.ts";
import { heldOutReplies } from "../unit/reply-corpus/held-out.ts";
import type { ReadJudgments } from "../unit/reply-corpus/rerank-judgments.ts";
import type { ScoredReply } from "../unit/reply-corpus/score.ts";
import { VARIATIONS_QUESTION } from "../unit/reply-corpus/query-variations.ts";

type Post = (path: string, body: unknown) => Promise<Record<string, unknown>>;

function siftAgainst(baseURL: string): Post {
  const app = createSiftApp();
  const env = {
    LLM_BASE_URL: baseURL,
    LLM_API_KEY: "x",
    LLM_STRUCTURED_OUTPUTS: "false",
    DEMO_CORPUS: "false",
  };
  return async (path, body) => {
    const response = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
    assert.equal(response.status, 200, await response.clone().text());
    return await response.json();
  };
}

type Result = { index: number; relevance_score: number | null; degraded?: true };

/** Each route's reading of one reply, in the corpus's terms; undefined: not a route reader. */
async function readThroughRoute(post: Post, entry: ScoredReply, n: number): Promise<unknown> {
  const query = `held-out question ${n}?`;
  switch (entry.reader) {
    case "retrieval": {
      const body = await post("/v1/judge/retrieval", {
        query,
        documents: [{ text: "A passage." }],
      });
      return (body.judgments as { score: number | null }[])[0]!.score;
    }
    case "similarity": {
      const body = await post("/v1/judge/similarity", { query, answer: "a", reference: "b" });
      return body.score;
    }
    case "answer": {
      const body = await post("/v1/judge/answer", { query, answer: "An answer." });
      return body.scores;
    }
    case "pairwise": {
      const body = await post("/v1/judge/pairwise", { query, answer_a: "One.", answer_b: "Two." });
      // Both orders get the same reply: the first order's verdict is the reply's.
      return (body.verdicts as (string | null)[])[0];
    }
    case "rerank-relevance": {
      const documents = ["one", "two", "three", "four"].map((word) => `Passage ${word} ${n}.`);
      const body = await post("/v1/rerank", { query, documents, strategy: "relevance" });
      const read: ReadJudgments = {};
      for (const result of body.results as Result[]) {
        if (result.degraded) continue;
        read[result.index + 1] = { final: result.relevance_score! };
      }
      for (const discarded of body.discarded as { index: number; reason: string }[]) {
        if (/ignore/.test(discarded.reason)) read[discarded.index + 1] = "dropped";
      }
      return read;
    }
    case "variations": {
      const body = await post("/v1/fuse", { query: VARIATIONS_QUESTION, variations: 3 });
      const written = (body.queries as { text: string; origin: string }[])
        .filter((item) => item.origin === "variation").map((item) => item.text);
      return written.length > 0 ? written : null;
    }
    default:
      return undefined;
  }
}

/** A rerank map is wrong when a document it scored or dropped differs from the person's reading. */
function outcome(entry: ScoredReply, read: unknown): "right" | "wrong" | "degraded" {
  if (assertEqual(read, entry.expected)) return "right";
  if (entry.reader === "rerank-relevance") {
    const expected = entry.expected as ReadJudgments;
    for (const [doc, value] of Object.entries(read as ReadJudgments)) {
      if (!assertEqual(value, expected[Number(doc)])) return "wrong";
    }
    return "degraded";
  }
  return read === null ? "degraded" : "wrong";
}

function assertEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

Deno.test("held-out replies through the judge, rerank and fuse routes in text mode: none confidently wrong, at most 5 degraded", async () => {
  let current = "";
  await using model = serveTextModel(() => current);
  const post = siftAgainst(model.baseURL);
  const tally = { right: 0, wrong: [] as string[], degraded: [] as string[] };
  let n = 0;
  for (const entry of heldOutReplies) {
    current = entry.reply;
    // Relevance reranks leave unnamed documents unranked (discarded), not degraded: compare named.
    const read = await readThroughRoute(post, entry, ++n);
    if (read === undefined) continue;
    const result = outcome(entry, read);
    const line = `[${entry.category}] ${JSON.stringify(read)} for ${JSON.stringify(entry.reply)}`;
    if (result === "right") tally.right++;
    else if (result === "wrong") tally.wrong.push(line);
    else tally.degraded.push(line);
  }
  console.log(
    `held-out through routes: ${tally.right} right, ${tally.wrong.length} wrong, ${tally.degraded.length} degraded`,
  );
  assert.ok(tally.right >= 35, `most replies are route-readable: ${tally.right}`);
  assert.deepEqual(tally.wrong, []);
  assert.ok(tally.degraded.length <= 5, tally.degraded.join("\n"));
});
