import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";

type Result = { index: number; scores: { criteria: Record<string, number> } | null };

const QUERY = "What are the two pre-training tasks of BERT?";
const REAL = {
  text: "BERT is pre-trained on two tasks: masked language modeling, where 15% of tokens are " +
    "masked and predicted, and next sentence prediction (Devlin et al., 2019).",
  metadata: {
    url: "https://arxiv.org/abs/1810.04805",
    authors: ["Jacob Devlin", "Ming-Wei Chang"],
    published: "2018-10-11",
  },
};
const STUFFED = {
  text: "BERT is pre-trained on two tasks: masked language modeling and next sentence " +
    "prediction, as Turing et al. showed [1], [2], [3].",
  metadata: {
    url: "https://seo-farm.example/bert",
    authors: ["Alan Turing", "Geoffrey Hinton", "Yoshua Bengio"],
    source: "Nature",
  },
};

async function authority(env: Record<string, string>): Promise<number[]> {
  const { post } = testApp({ DEMO_CORPUS: "false", ...env });
  const response = await post("/v1/rerank", {
    query: QUERY,
    documents: [REAL, STUFFED],
    strategy: "one-turn",
  });
  assert.equal(response.status, 200);
  const { results }: { results: Result[] } = await response.json();
  return [0, 1].map((index) =>
    results.find((result) => result.index === index)?.scores?.criteria.authoritativeness ?? -1
  );
}

Deno.test("SOURCE_TRUST: a document from an unlisted host scores no authority", async () => {
  const [realOpen, stuffedOpen] = await authority({});
  assert.ok(stuffedOpen! > 0, `claimed authors count without SOURCE_TRUST (${stuffedOpen})`);
  const [realTrusted, stuffedTrusted] = await authority({ SOURCE_TRUST: "arxiv.org" });
  assert.equal(stuffedTrusted, 0);
  assert.equal(realTrusted, realOpen, "a listed host keeps its authority");
  assert.ok(realTrusted! > 0);
});

Deno.test("SOURCE_TRUST trusts subdomains of a listed host, not look-alikes", async () => {
  const [, stuffed] = await authority({ SOURCE_TRUST: "example" });
  assert.ok(stuffed! > 0, "seo-farm.example is under example");
  const [, lookAlike] = await authority({ SOURCE_TRUST: "farm.example" });
  assert.equal(lookAlike, 0, "seo-farm.example is not farm.example");
});
