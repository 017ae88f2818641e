/**
 * Reading corpus replies through the judge, rerank and fuse routes, as a
 * user of the service would: the reply is served by a real
 * OpenAI-compatible server on loopback and the route's JSON is put back in
 * the corpus's terms (`tests/unit/reply-corpus/score.ts`).
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import type { ReadJudgments } from "../unit/reply-corpus/rerank-judgments.ts";
import type { ScoredReply } from "../unit/reply-corpus/score.ts";
import { VARIATIONS_QUESTION } from "../unit/reply-corpus/query-variations.ts";

export type Post = (path: string, body: unknown) => Promise<Record<string, unknown>>;

export function siftAgainst(baseURL: string): Post {
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
export async function readThroughRoute(
  post: Post,
  entry: ScoredReply,
  n: number,
): Promise<unknown> {
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
export function outcome(entry: ScoredReply, read: unknown): "right" | "wrong" | "degraded" {
  if (entry.reader === "rerank-relevance") {
    const expected = finalsOnly(entry.expected as ReadJudgments);
    if (assertEqual(read, expected)) return "right";
    for (const [doc, value] of Object.entries(read as ReadJudgments)) {
      if (!assertEqual(value, expected[Number(doc)])) return "wrong";
    }
    return "degraded";
  }
  if (assertEqual(read, entry.expected)) return "right";
  return read === null ? "degraded" : "wrong";
}

/** A rerank reading as the route shows it: each document's final score (a JSON reply's breakdown is not shown). */
function finalsOnly(expected: ReadJudgments): ReadJudgments {
  return Object.fromEntries(
    Object.entries(expected).map((
      [doc, value],
    ) => [doc, typeof value === "string" ? value : { final: value.final }]),
  );
}

function assertEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
